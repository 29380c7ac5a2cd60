from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.available_phone_number_list import AvailablePhoneNumberList
from ...models.list_available_phone_numbers_error import ListAvailablePhoneNumbersError
from ...models.list_available_phone_numbers_type import ListAvailablePhoneNumbersType
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    country: str | Unset = UNSET,
    type_: ListAvailablePhoneNumbersType | Unset = UNSET,
    area_code: str | Unset = UNSET,
    contains: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["country"] = country

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_.value

    params["type"] = json_type_

    params["area_code"] = area_code

    params["contains"] = contains

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/available_phone_numbers",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError:
    if response.status_code == 200:
        response_200 = AvailablePhoneNumberList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListAvailablePhoneNumbersError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListAvailablePhoneNumbersError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListAvailablePhoneNumbersError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = ListAvailablePhoneNumbersError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListAvailablePhoneNumbersError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    type_: ListAvailablePhoneNumbersType | Unset = UNSET,
    area_code: str | Unset = UNSET,
    contains: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> Response[ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError]:
    """ Search numbers for sale

     Live keys: Twilio's AvailablePhoneNumbers in the organization's account (Twilio's refusal is 400
    `phone_number_search_failed` with `twilio_code`). Test keys: ten simulated numbers
    `+1<area>55501<00–09>` (local), `…55502…` (mobile), `+1800555010x` (toll_free). Needs the
    `phone_numbers:read` scope.

    Args:
        country (str | Unset):
        type_ (ListAvailablePhoneNumbersType | Unset):
        area_code (str | Unset):
        contains (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError]
     """


    kwargs = _get_kwargs(
        country=country,
type_=type_,
area_code=area_code,
contains=contains,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    type_: ListAvailablePhoneNumbersType | Unset = UNSET,
    area_code: str | Unset = UNSET,
    contains: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError | None:
    """ Search numbers for sale

     Live keys: Twilio's AvailablePhoneNumbers in the organization's account (Twilio's refusal is 400
    `phone_number_search_failed` with `twilio_code`). Test keys: ten simulated numbers
    `+1<area>55501<00–09>` (local), `…55502…` (mobile), `+1800555010x` (toll_free). Needs the
    `phone_numbers:read` scope.

    Args:
        country (str | Unset):
        type_ (ListAvailablePhoneNumbersType | Unset):
        area_code (str | Unset):
        contains (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError
     """


    return sync_detailed(
        client=client,
country=country,
type_=type_,
area_code=area_code,
contains=contains,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    type_: ListAvailablePhoneNumbersType | Unset = UNSET,
    area_code: str | Unset = UNSET,
    contains: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> Response[ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError]:
    """ Search numbers for sale

     Live keys: Twilio's AvailablePhoneNumbers in the organization's account (Twilio's refusal is 400
    `phone_number_search_failed` with `twilio_code`). Test keys: ten simulated numbers
    `+1<area>55501<00–09>` (local), `…55502…` (mobile), `+1800555010x` (toll_free). Needs the
    `phone_numbers:read` scope.

    Args:
        country (str | Unset):
        type_ (ListAvailablePhoneNumbersType | Unset):
        area_code (str | Unset):
        contains (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError]
     """


    kwargs = _get_kwargs(
        country=country,
type_=type_,
area_code=area_code,
contains=contains,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    type_: ListAvailablePhoneNumbersType | Unset = UNSET,
    area_code: str | Unset = UNSET,
    contains: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError | None:
    """ Search numbers for sale

     Live keys: Twilio's AvailablePhoneNumbers in the organization's account (Twilio's refusal is 400
    `phone_number_search_failed` with `twilio_code`). Test keys: ten simulated numbers
    `+1<area>55501<00–09>` (local), `…55502…` (mobile), `+1800555010x` (toll_free). Needs the
    `phone_numbers:read` scope.

    Args:
        country (str | Unset):
        type_ (ListAvailablePhoneNumbersType | Unset):
        area_code (str | Unset):
        contains (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | AvailablePhoneNumberList | ListAvailablePhoneNumbersError
     """


    return (await asyncio_detailed(
        client=client,
country=country,
type_=type_,
area_code=area_code,
contains=contains,
limit=limit,

    )).parsed
