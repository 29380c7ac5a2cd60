from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.connector_installation import ConnectorInstallation
from ...models.retrieve_connector_installation_error import RetrieveConnectorInstallationError
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/connector_installations/{id}".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | ConnectorInstallation | RetrieveConnectorInstallationError:
    if response.status_code == 200:
        response_200 = ConnectorInstallation.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveConnectorInstallationError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveConnectorInstallationError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveConnectorInstallationError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveConnectorInstallationError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveConnectorInstallationError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveConnectorInstallationError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | ConnectorInstallation | RetrieveConnectorInstallationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | ConnectorInstallation | RetrieveConnectorInstallationError]:
    """ Retrieve a connector installation

     Retrieve a connector installation. Needs the `connectors:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConnectorInstallation | RetrieveConnectorInstallationError]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | ConnectorInstallation | RetrieveConnectorInstallationError | None:
    """ Retrieve a connector installation

     Retrieve a connector installation. Needs the `connectors:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConnectorInstallation | RetrieveConnectorInstallationError
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | ConnectorInstallation | RetrieveConnectorInstallationError]:
    """ Retrieve a connector installation

     Retrieve a connector installation. Needs the `connectors:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConnectorInstallation | RetrieveConnectorInstallationError]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | ConnectorInstallation | RetrieveConnectorInstallationError | None:
    """ Retrieve a connector installation

     Retrieve a connector installation. Needs the `connectors:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConnectorInstallation | RetrieveConnectorInstallationError
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
