from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.connector_version import ConnectorVersion
from ...models.retrieve_connector_version_error import RetrieveConnectorVersionError
from typing import cast



def _get_kwargs(
    id: str,
    version: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/connectors/{id}/versions/{version}".format(id=quote(str(id), safe=""),version=quote(str(version), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | ConnectorVersion | RetrieveConnectorVersionError:
    if response.status_code == 200:
        response_200 = ConnectorVersion.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveConnectorVersionError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveConnectorVersionError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveConnectorVersionError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveConnectorVersionError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveConnectorVersionError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveConnectorVersionError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | ConnectorVersion | RetrieveConnectorVersionError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | ConnectorVersion | RetrieveConnectorVersionError]:
    """ Retrieve a connector version

     Retrieve a connector version. Needs the `connectors:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConnectorVersion | RetrieveConnectorVersionError]
     """


    kwargs = _get_kwargs(
        id=id,
version=version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | ConnectorVersion | RetrieveConnectorVersionError | None:
    """ Retrieve a connector version

     Retrieve a connector version. Needs the `connectors:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConnectorVersion | RetrieveConnectorVersionError
     """


    return sync_detailed(
        id=id,
version=version,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | ConnectorVersion | RetrieveConnectorVersionError]:
    """ Retrieve a connector version

     Retrieve a connector version. Needs the `connectors:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConnectorVersion | RetrieveConnectorVersionError]
     """


    kwargs = _get_kwargs(
        id=id,
version=version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | ConnectorVersion | RetrieveConnectorVersionError | None:
    """ Retrieve a connector version

     Retrieve a connector version. Needs the `connectors:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConnectorVersion | RetrieveConnectorVersionError
     """


    return (await asyncio_detailed(
        id=id,
version=version,
client=client,

    )).parsed
