from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.http_tool import HttpTool
from ...models.mcp_tool import McpTool
from ...models.retrieve_tool_error import RetrieveToolError
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tools/{id}".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | HttpTool | McpTool | RetrieveToolError:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> HttpTool | McpTool:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_type_0 = HttpTool.from_dict(data)



                return componentsschemas_tool_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_tool_type_1 = McpTool.from_dict(data)



            return componentsschemas_tool_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = RetrieveToolError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveToolError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveToolError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveToolError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveToolError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveToolError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | HttpTool | McpTool | RetrieveToolError]:
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

) -> Response[ApiError | HttpTool | McpTool | RetrieveToolError]:
    """ Retrieve a tool

     Retrieve a tool. Needs the `agents:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | HttpTool | McpTool | RetrieveToolError]
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

) -> ApiError | HttpTool | McpTool | RetrieveToolError | None:
    """ Retrieve a tool

     Retrieve a tool. Needs the `agents:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | HttpTool | McpTool | RetrieveToolError
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | HttpTool | McpTool | RetrieveToolError]:
    """ Retrieve a tool

     Retrieve a tool. Needs the `agents:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | HttpTool | McpTool | RetrieveToolError]
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

) -> ApiError | HttpTool | McpTool | RetrieveToolError | None:
    """ Retrieve a tool

     Retrieve a tool. Needs the `agents:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | HttpTool | McpTool | RetrieveToolError
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
