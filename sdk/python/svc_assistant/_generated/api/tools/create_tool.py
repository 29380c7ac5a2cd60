from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_tool_body_type_0 import CreateToolBodyType0
from ...models.create_tool_body_type_1 import CreateToolBodyType1
from ...models.error import Error
from ...models.tool_type_0 import ToolType0
from ...models.tool_type_1 import ToolType1
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateToolBodyType0 | CreateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tools",
    }

    
    if isinstance(body, CreateToolBodyType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ToolType0 | ToolType1:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> ToolType0 | ToolType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_tool_type_0 = ToolType0.from_dict(data)



                return componentsschemas_tool_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_tool_type_1 = ToolType1.from_dict(data)



            return componentsschemas_tool_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    response_default = Error.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | ToolType0 | ToolType1]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateToolBodyType0 | CreateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | ToolType0 | ToolType1]:
    """ Create a tool

     An HTTPS endpoint of yours the assistant may call (`http`), or a Model Context Protocol server whose
    tools it may call (`mcp`). An http tool answers its signing `secret` this once.

    Args:
        idempotency_key (str | Unset):
        body (CreateToolBodyType0 | CreateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ToolType0 | ToolType1]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: CreateToolBodyType0 | CreateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> Error | ToolType0 | ToolType1 | None:
    """ Create a tool

     An HTTPS endpoint of yours the assistant may call (`http`), or a Model Context Protocol server whose
    tools it may call (`mcp`). An http tool answers its signing `secret` this once.

    Args:
        idempotency_key (str | Unset):
        body (CreateToolBodyType0 | CreateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ToolType0 | ToolType1
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateToolBodyType0 | CreateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> Response[Error | ToolType0 | ToolType1]:
    """ Create a tool

     An HTTPS endpoint of yours the assistant may call (`http`), or a Model Context Protocol server whose
    tools it may call (`mcp`). An http tool answers its signing `secret` this once.

    Args:
        idempotency_key (str | Unset):
        body (CreateToolBodyType0 | CreateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ToolType0 | ToolType1]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateToolBodyType0 | CreateToolBodyType1,
    idempotency_key: str | Unset = UNSET,

) -> Error | ToolType0 | ToolType1 | None:
    """ Create a tool

     An HTTPS endpoint of yours the assistant may call (`http`), or a Model Context Protocol server whose
    tools it may call (`mcp`). An http tool answers its signing `secret` this once.

    Args:
        idempotency_key (str | Unset):
        body (CreateToolBodyType0 | CreateToolBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ToolType0 | ToolType1
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
