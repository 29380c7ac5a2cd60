from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.do_not_call_entry import DoNotCallEntry
from ...models.retrieve_do_not_call_number_error import RetrieveDoNotCallNumberError
from typing import cast



def _get_kwargs(
    phone: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/do_not_call/{phone}".format(phone=quote(str(phone), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError:
    if response.status_code == 200:
        response_200 = DoNotCallEntry.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveDoNotCallNumberError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveDoNotCallNumberError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveDoNotCallNumberError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveDoNotCallNumberError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveDoNotCallNumberError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveDoNotCallNumberError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    phone: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError]:
    """ Check a do-not-call number

     The entry of a listed number (write `+` as `%2B`); 404 when the number is not listed. Needs the
    `contacts:read` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError]
     """


    kwargs = _get_kwargs(
        phone=phone,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    phone: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError | None:
    """ Check a do-not-call number

     The entry of a listed number (write `+` as `%2B`); 404 when the number is not listed. Needs the
    `contacts:read` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError
     """


    return sync_detailed(
        phone=phone,
client=client,

    ).parsed

async def asyncio_detailed(
    phone: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError]:
    """ Check a do-not-call number

     The entry of a listed number (write `+` as `%2B`); 404 when the number is not listed. Needs the
    `contacts:read` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError]
     """


    kwargs = _get_kwargs(
        phone=phone,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    phone: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError | None:
    """ Check a do-not-call number

     The entry of a listed number (write `+` as `%2B`); 404 when the number is not listed. Needs the
    `contacts:read` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DoNotCallEntry | RetrieveDoNotCallNumberError
     """


    return (await asyncio_detailed(
        phone=phone,
client=client,

    )).parsed
