from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.caller_id import CallerId
from ...models.retrieve_caller_id_error import RetrieveCallerIdError
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/caller_ids/{id}".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CallerId | RetrieveCallerIdError:
    if response.status_code == 200:
        response_200 = CallerId.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveCallerIdError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveCallerIdError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveCallerIdError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveCallerIdError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveCallerIdError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveCallerIdError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CallerId | RetrieveCallerIdError]:
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

) -> Response[ApiError | CallerId | RetrieveCallerIdError]:
    """ Retrieve a caller ID

     Retrieve a caller ID. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CallerId | RetrieveCallerIdError]
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

) -> ApiError | CallerId | RetrieveCallerIdError | None:
    """ Retrieve a caller ID

     Retrieve a caller ID. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CallerId | RetrieveCallerIdError
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | CallerId | RetrieveCallerIdError]:
    """ Retrieve a caller ID

     Retrieve a caller ID. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CallerId | RetrieveCallerIdError]
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

) -> ApiError | CallerId | RetrieveCallerIdError | None:
    """ Retrieve a caller ID

     Retrieve a caller ID. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CallerId | RetrieveCallerIdError
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
