from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.add_do_not_call_numbers_body import AddDoNotCallNumbersBody
from ...models.add_do_not_call_numbers_error import AddDoNotCallNumbersError
from ...models.api_error import ApiError
from ...models.do_not_call_import import DoNotCallImport
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: AddDoNotCallNumbersBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/do_not_call",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AddDoNotCallNumbersError | ApiError | DoNotCallImport:
    if response.status_code == 200:
        response_200 = DoNotCallImport.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = AddDoNotCallNumbersError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AddDoNotCallNumbersError | ApiError | DoNotCallImport]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AddDoNotCallNumbersBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[AddDoNotCallNumbersError | ApiError | DoNotCallImport]:
    """ List numbers as do-not-call

     Lists up to 100,000 numbers (as `numbers`, or rows of `csv`); no call is ever dialed to a listed
    number, and a campaign skips it with `result: "do_not_call"`. All or nothing: a bad number is a 400
    naming it and lists none. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (AddDoNotCallNumbersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddDoNotCallNumbersError | ApiError | DoNotCallImport]
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
    body: AddDoNotCallNumbersBody,
    idempotency_key: str | Unset = UNSET,

) -> AddDoNotCallNumbersError | ApiError | DoNotCallImport | None:
    """ List numbers as do-not-call

     Lists up to 100,000 numbers (as `numbers`, or rows of `csv`); no call is ever dialed to a listed
    number, and a campaign skips it with `result: "do_not_call"`. All or nothing: a bad number is a 400
    naming it and lists none. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (AddDoNotCallNumbersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddDoNotCallNumbersError | ApiError | DoNotCallImport
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AddDoNotCallNumbersBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[AddDoNotCallNumbersError | ApiError | DoNotCallImport]:
    """ List numbers as do-not-call

     Lists up to 100,000 numbers (as `numbers`, or rows of `csv`); no call is ever dialed to a listed
    number, and a campaign skips it with `result: "do_not_call"`. All or nothing: a bad number is a 400
    naming it and lists none. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (AddDoNotCallNumbersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddDoNotCallNumbersError | ApiError | DoNotCallImport]
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
    body: AddDoNotCallNumbersBody,
    idempotency_key: str | Unset = UNSET,

) -> AddDoNotCallNumbersError | ApiError | DoNotCallImport | None:
    """ List numbers as do-not-call

     Lists up to 100,000 numbers (as `numbers`, or rows of `csv`); no call is ever dialed to a listed
    number, and a campaign skips it with `result: "do_not_call"`. All or nothing: a bad number is a 400
    naming it and lists none. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (AddDoNotCallNumbersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddDoNotCallNumbersError | ApiError | DoNotCallImport
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
