from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.call import Call
from ...models.retrieve_call_error import RetrieveCallError
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/calls/{id}".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | Call | RetrieveCallError:
    if response.status_code == 200:
        response_200 = Call.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveCallError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveCallError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveCallError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveCallError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveCallError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveCallError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | Call | RetrieveCallError]:
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

) -> Response[ApiError | Call | RetrieveCallError]:
    """ Retrieve a call

     A call not yet over shows its `turns` so far. `usage` is the call's model usage so far (a realtime
    call's audio tokens apart), from its usage rows. Needs the `calls:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | RetrieveCallError]
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

) -> ApiError | Call | RetrieveCallError | None:
    """ Retrieve a call

     A call not yet over shows its `turns` so far. `usage` is the call's model usage so far (a realtime
    call's audio tokens apart), from its usage rows. Needs the `calls:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | RetrieveCallError
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | Call | RetrieveCallError]:
    """ Retrieve a call

     A call not yet over shows its `turns` so far. `usage` is the call's model usage so far (a realtime
    call's audio tokens apart), from its usage rows. Needs the `calls:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | RetrieveCallError]
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

) -> ApiError | Call | RetrieveCallError | None:
    """ Retrieve a call

     A call not yet over shows its `turns` so far. `usage` is the call's model usage so far (a realtime
    call's audio tokens apart), from its usage rows. Needs the `calls:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | RetrieveCallError
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
