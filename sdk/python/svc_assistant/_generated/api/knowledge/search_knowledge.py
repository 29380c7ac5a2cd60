from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.knowledge_chunk_list import KnowledgeChunkList
from ...models.search_knowledge_error import SearchKnowledgeError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    agent_id: str,
    query: str,
    limit: int | Unset = 5,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["agent_id"] = agent_id

    params["query"] = query

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/knowledge/search",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | KnowledgeChunkList | SearchKnowledgeError:
    if response.status_code == 200:
        response_200 = KnowledgeChunkList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = SearchKnowledgeError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = SearchKnowledgeError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = SearchKnowledgeError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = SearchKnowledgeError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = SearchKnowledgeError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = SearchKnowledgeError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | KnowledgeChunkList | SearchKnowledgeError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: str,
    query: str,
    limit: int | Unset = 5,

) -> Response[ApiError | KnowledgeChunkList | SearchKnowledgeError]:
    """ Search an agent's knowledge

     What the assistant would be given for `query`, best first. Needs the `agents:read` scope.

    Args:
        agent_id (str):
        query (str):
        limit (int | Unset):  Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | KnowledgeChunkList | SearchKnowledgeError]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
query=query,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    agent_id: str,
    query: str,
    limit: int | Unset = 5,

) -> ApiError | KnowledgeChunkList | SearchKnowledgeError | None:
    """ Search an agent's knowledge

     What the assistant would be given for `query`, best first. Needs the `agents:read` scope.

    Args:
        agent_id (str):
        query (str):
        limit (int | Unset):  Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | KnowledgeChunkList | SearchKnowledgeError
     """


    return sync_detailed(
        client=client,
agent_id=agent_id,
query=query,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: str,
    query: str,
    limit: int | Unset = 5,

) -> Response[ApiError | KnowledgeChunkList | SearchKnowledgeError]:
    """ Search an agent's knowledge

     What the assistant would be given for `query`, best first. Needs the `agents:read` scope.

    Args:
        agent_id (str):
        query (str):
        limit (int | Unset):  Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | KnowledgeChunkList | SearchKnowledgeError]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
query=query,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    agent_id: str,
    query: str,
    limit: int | Unset = 5,

) -> ApiError | KnowledgeChunkList | SearchKnowledgeError | None:
    """ Search an agent's knowledge

     What the assistant would be given for `query`, best first. Needs the `agents:read` scope.

    Args:
        agent_id (str):
        query (str):
        limit (int | Unset):  Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | KnowledgeChunkList | SearchKnowledgeError
     """


    return (await asyncio_detailed(
        client=client,
agent_id=agent_id,
query=query,
limit=limit,

    )).parsed
