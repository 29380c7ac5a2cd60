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
from ...models.update_tool_body_type_0 import UpdateToolBodyType0
from ...models.update_tool_body_type_1 import UpdateToolBodyType1
from ...models.update_tool_error import UpdateToolError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: UpdateToolBodyType0 | UpdateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tools/{id}".format(id=quote(str(id), safe=""),),
    }

    
    if isinstance(body, UpdateToolBodyType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | HttpTool | McpTool | UpdateToolError:
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
        response_400 = UpdateToolError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = UpdateToolError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = UpdateToolError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = UpdateToolError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = UpdateToolError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = UpdateToolError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = UpdateToolError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = UpdateToolError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = UpdateToolError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = UpdateToolError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | HttpTool | McpTool | UpdateToolError]:
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
    body: UpdateToolBodyType0 | UpdateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | HttpTool | McpTool | UpdateToolError]:
    """ Update a tool

     Only the fields given change; `type` never does. `headers` replaces the whole set;
    `speak_while_running` and `allowed_tools` take null to clear. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateToolBodyType0 | UpdateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | HttpTool | McpTool | UpdateToolError]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateToolBodyType0 | UpdateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | HttpTool | McpTool | UpdateToolError | None:
    """ Update a tool

     Only the fields given change; `type` never does. `headers` replaces the whole set;
    `speak_while_running` and `allowed_tools` take null to clear. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateToolBodyType0 | UpdateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | HttpTool | McpTool | UpdateToolError
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateToolBodyType0 | UpdateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | HttpTool | McpTool | UpdateToolError]:
    """ Update a tool

     Only the fields given change; `type` never does. `headers` replaces the whole set;
    `speak_while_running` and `allowed_tools` take null to clear. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateToolBodyType0 | UpdateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | HttpTool | McpTool | UpdateToolError]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateToolBodyType0 | UpdateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | HttpTool | McpTool | UpdateToolError | None:
    """ Update a tool

     Only the fields given change; `type` never does. `headers` replaces the whole set;
    `speak_while_running` and `allowed_tools` take null to clear. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateToolBodyType0 | UpdateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | HttpTool | McpTool | UpdateToolError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
