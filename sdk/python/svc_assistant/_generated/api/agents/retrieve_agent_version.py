from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent_version import AgentVersion
from ...models.api_error import ApiError
from ...models.retrieve_agent_version_error import RetrieveAgentVersionError
from typing import cast



def _get_kwargs(
    id: str,
    version: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/{id}/versions/{version}".format(id=quote(str(id), safe=""),version=quote(str(version), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AgentVersion | ApiError | RetrieveAgentVersionError:
    if response.status_code == 200:
        response_200 = AgentVersion.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveAgentVersionError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveAgentVersionError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveAgentVersionError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveAgentVersionError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveAgentVersionError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveAgentVersionError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AgentVersion | ApiError | RetrieveAgentVersionError]:
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

) -> Response[AgentVersion | ApiError | RetrieveAgentVersionError]:
    """ Retrieve an agent version

     Retrieve an agent version. Needs the `agents:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentVersion | ApiError | RetrieveAgentVersionError]
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

) -> AgentVersion | ApiError | RetrieveAgentVersionError | None:
    """ Retrieve an agent version

     Retrieve an agent version. Needs the `agents:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentVersion | ApiError | RetrieveAgentVersionError
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

) -> Response[AgentVersion | ApiError | RetrieveAgentVersionError]:
    """ Retrieve an agent version

     Retrieve an agent version. Needs the `agents:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentVersion | ApiError | RetrieveAgentVersionError]
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

) -> AgentVersion | ApiError | RetrieveAgentVersionError | None:
    """ Retrieve an agent version

     Retrieve an agent version. Needs the `agents:read` scope.

    Args:
        id (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentVersion | ApiError | RetrieveAgentVersionError
     """


    return (await asyncio_detailed(
        id=id,
version=version,
client=client,

    )).parsed
