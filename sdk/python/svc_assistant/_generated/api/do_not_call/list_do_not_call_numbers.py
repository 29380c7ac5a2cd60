from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.do_not_call_entry_list import DoNotCallEntryList
from ...models.list_do_not_call_numbers_error import ListDoNotCallNumbersError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    phone: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    params["phone"] = phone


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/do_not_call",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | DoNotCallEntryList | ListDoNotCallNumbersError:
    if response.status_code == 200:
        response_200 = DoNotCallEntryList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListDoNotCallNumbersError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListDoNotCallNumbersError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListDoNotCallNumbersError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = ListDoNotCallNumbersError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListDoNotCallNumbersError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | DoNotCallEntryList | ListDoNotCallNumbersError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    phone: str | Unset = UNSET,

) -> Response[ApiError | DoNotCallEntryList | ListDoNotCallNumbersError]:
    """ List do-not-call numbers

     List do-not-call numbers. Needs the `contacts:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        phone (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DoNotCallEntryList | ListDoNotCallNumbersError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
phone=phone,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    phone: str | Unset = UNSET,

) -> ApiError | DoNotCallEntryList | ListDoNotCallNumbersError | None:
    """ List do-not-call numbers

     List do-not-call numbers. Needs the `contacts:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        phone (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DoNotCallEntryList | ListDoNotCallNumbersError
     """


    return sync_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
phone=phone,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    phone: str | Unset = UNSET,

) -> Response[ApiError | DoNotCallEntryList | ListDoNotCallNumbersError]:
    """ List do-not-call numbers

     List do-not-call numbers. Needs the `contacts:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        phone (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DoNotCallEntryList | ListDoNotCallNumbersError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
phone=phone,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    phone: str | Unset = UNSET,

) -> ApiError | DoNotCallEntryList | ListDoNotCallNumbersError | None:
    """ List do-not-call numbers

     List do-not-call numbers. Needs the `contacts:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        phone (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DoNotCallEntryList | ListDoNotCallNumbersError
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
phone=phone,

    )).parsed
