from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.call import Call
from ...models.transfer_call_body import TransferCallBody
from ...models.transfer_call_error import TransferCallError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: TransferCallBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/calls/{id}/transfer".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | Call | TransferCallError:
    if response.status_code == 200:
        response_200 = Call.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = TransferCallError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = TransferCallError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = TransferCallError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = TransferCallError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = TransferCallError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = TransferCallError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = TransferCallError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = TransferCallError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = TransferCallError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = TransferCallError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | Call | TransferCallError]:
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
    body: TransferCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Call | TransferCallError]:
    """ Transfer a live call

     To an E.164 number or a `sip:` URI the account's `dialing_permissions` allow (400
    `destination_not_allowed` naming `to` otherwise: a country not allowed, a high-cost number type, a
    SIP domain not listed, a `client:` identity). `mode: "warm"` briefs the person first and brings the
    caller back to the assistant when they cannot take the call; answers once the outcome is known
    (`transferred`, or `transfer.status: "failed"`). A call on the realtime engine is transferred by a
    SIP `refer` of its leg, always cold (`mode: "warm"` too: its leg cannot be held while the person is
    briefed). 409 `call_not_live` once it has ended, `transfer_in_progress` while a warm transfer runs.
    Needs the `calls:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TransferCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | TransferCallError]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: TransferCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Call | TransferCallError | None:
    """ Transfer a live call

     To an E.164 number or a `sip:` URI the account's `dialing_permissions` allow (400
    `destination_not_allowed` naming `to` otherwise: a country not allowed, a high-cost number type, a
    SIP domain not listed, a `client:` identity). `mode: "warm"` briefs the person first and brings the
    caller back to the assistant when they cannot take the call; answers once the outcome is known
    (`transferred`, or `transfer.status: "failed"`). A call on the realtime engine is transferred by a
    SIP `refer` of its leg, always cold (`mode: "warm"` too: its leg cannot be held while the person is
    briefed). 409 `call_not_live` once it has ended, `transfer_in_progress` while a warm transfer runs.
    Needs the `calls:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TransferCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | TransferCallError
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: TransferCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Call | TransferCallError]:
    """ Transfer a live call

     To an E.164 number or a `sip:` URI the account's `dialing_permissions` allow (400
    `destination_not_allowed` naming `to` otherwise: a country not allowed, a high-cost number type, a
    SIP domain not listed, a `client:` identity). `mode: "warm"` briefs the person first and brings the
    caller back to the assistant when they cannot take the call; answers once the outcome is known
    (`transferred`, or `transfer.status: "failed"`). A call on the realtime engine is transferred by a
    SIP `refer` of its leg, always cold (`mode: "warm"` too: its leg cannot be held while the person is
    briefed). 409 `call_not_live` once it has ended, `transfer_in_progress` while a warm transfer runs.
    Needs the `calls:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TransferCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | TransferCallError]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: TransferCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Call | TransferCallError | None:
    """ Transfer a live call

     To an E.164 number or a `sip:` URI the account's `dialing_permissions` allow (400
    `destination_not_allowed` naming `to` otherwise: a country not allowed, a high-cost number type, a
    SIP domain not listed, a `client:` identity). `mode: "warm"` briefs the person first and brings the
    caller back to the assistant when they cannot take the call; answers once the outcome is known
    (`transferred`, or `transfer.status: "failed"`). A call on the realtime engine is transferred by a
    SIP `refer` of its leg, always cold (`mode: "warm"` too: its leg cannot be held while the person is
    briefed). 409 `call_not_live` once it has ended, `transfer_in_progress` while a warm transfer runs.
    Needs the `calls:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (TransferCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | TransferCallError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
