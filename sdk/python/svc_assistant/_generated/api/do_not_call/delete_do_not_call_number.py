from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.delete_do_not_call_number_error import DeleteDoNotCallNumberError
from ...models.do_not_call_deleted import DoNotCallDeleted
from typing import cast



def _get_kwargs(
    phone: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/do_not_call/{phone}".format(phone=quote(str(phone), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted:
    if response.status_code == 200:
        response_200 = DoNotCallDeleted.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = DeleteDoNotCallNumberError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = DeleteDoNotCallNumberError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = DeleteDoNotCallNumberError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = DeleteDoNotCallNumberError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = DeleteDoNotCallNumberError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = DeleteDoNotCallNumberError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted]:
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

) -> Response[ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted]:
    """ Take a number off the do-not-call list

     Calls to the number are allowed again (unless a contact or the national registry lists it). Only for
    a person who asked to be called again. Needs the `contacts:write` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted]
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

) -> ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted | None:
    """ Take a number off the do-not-call list

     Calls to the number are allowed again (unless a contact or the national registry lists it). Only for
    a person who asked to be called again. Needs the `contacts:write` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted
     """


    return sync_detailed(
        phone=phone,
client=client,

    ).parsed

async def asyncio_detailed(
    phone: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted]:
    """ Take a number off the do-not-call list

     Calls to the number are allowed again (unless a contact or the national registry lists it). Only for
    a person who asked to be called again. Needs the `contacts:write` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted]
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

) -> ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted | None:
    """ Take a number off the do-not-call list

     Calls to the number are allowed again (unless a contact or the national registry lists it). Only for
    a person who asked to be called again. Needs the `contacts:write` scope.

    Args:
        phone (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DeleteDoNotCallNumberError | DoNotCallDeleted
     """


    return (await asyncio_detailed(
        phone=phone,
client=client,

    )).parsed
