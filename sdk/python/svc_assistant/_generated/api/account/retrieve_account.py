from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.account import Account
from ...models.api_error import ApiError
from ...models.retrieve_account_error import RetrieveAccountError
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/account",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Account | ApiError | RetrieveAccountError:
    if response.status_code == 200:
        response_200 = Account.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveAccountError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveAccountError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveAccountError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = RetrieveAccountError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveAccountError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Account | ApiError | RetrieveAccountError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[Account | ApiError | RetrieveAccountError]:
    """ Retrieve the account

     The key's organization in the key's mode: id, name, mode, limits, daily quotas (cap, today's use,
    reset time; both modes together), retention and redaction. Every secret or restricted key may read
    it. Needs the `account:read` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Account | ApiError | RetrieveAccountError]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> Account | ApiError | RetrieveAccountError | None:
    """ Retrieve the account

     The key's organization in the key's mode: id, name, mode, limits, daily quotas (cap, today's use,
    reset time; both modes together), retention and redaction. Every secret or restricted key may read
    it. Needs the `account:read` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Account | ApiError | RetrieveAccountError
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[Account | ApiError | RetrieveAccountError]:
    """ Retrieve the account

     The key's organization in the key's mode: id, name, mode, limits, daily quotas (cap, today's use,
    reset time; both modes together), retention and redaction. Every secret or restricted key may read
    it. Needs the `account:read` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Account | ApiError | RetrieveAccountError]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> Account | ApiError | RetrieveAccountError | None:
    """ Retrieve the account

     The key's organization in the key's mode: id, name, mode, limits, daily quotas (cap, today's use,
    reset time; both modes together), retention and redaction. Every secret or restricted key may read
    it. Needs the `account:read` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Account | ApiError | RetrieveAccountError
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
