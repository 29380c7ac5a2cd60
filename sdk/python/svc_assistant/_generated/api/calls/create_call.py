from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.call import Call
from ...models.create_call_body import CreateCallBody
from ...models.create_call_error import CreateCallError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateCallBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/calls",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | Call | CreateCallError:
    if response.status_code == 200:
        response_200 = Call.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateCallError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateCallError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateCallError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = CreateCallError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = CreateCallError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreateCallError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateCallError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreateCallError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreateCallError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateCallError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | Call | CreateCallError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Call | CreateCallError]:
    """ Place a call

     Starts the call and answers `queued` at once (`scheduled` with a later `scheduled_at`, a closed
    `calling_window`, or outside the callee's calling hours); a number on a do-not-call list is 422
    `number_on_do_not_call`, one the account's `dialing_permissions` refuse (a country not allowed, a
    premium-rate, shared-cost, personal or satellite number) 400 `destination_not_allowed` naming `to`;
    follow it with `GET /v1/calls/{id}` or the `call.*` events. A live key needs Twilio, and `from` must
    be one of the organization's voice numbers or verified caller IDs (400 `from_not_owned`; absent: the
    agent's number, else the organization's first voice number); a test key simulates the call
    (`simulation`: the caller's lines, the outcome, ring and pause seconds). Needs the `calls:write`
    scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | CreateCallError]
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
    body: CreateCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Call | CreateCallError | None:
    """ Place a call

     Starts the call and answers `queued` at once (`scheduled` with a later `scheduled_at`, a closed
    `calling_window`, or outside the callee's calling hours); a number on a do-not-call list is 422
    `number_on_do_not_call`, one the account's `dialing_permissions` refuse (a country not allowed, a
    premium-rate, shared-cost, personal or satellite number) 400 `destination_not_allowed` naming `to`;
    follow it with `GET /v1/calls/{id}` or the `call.*` events. A live key needs Twilio, and `from` must
    be one of the organization's voice numbers or verified caller IDs (400 `from_not_owned`; absent: the
    agent's number, else the organization's first voice number); a test key simulates the call
    (`simulation`: the caller's lines, the outcome, ring and pause seconds). Needs the `calls:write`
    scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | CreateCallError
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Call | CreateCallError]:
    """ Place a call

     Starts the call and answers `queued` at once (`scheduled` with a later `scheduled_at`, a closed
    `calling_window`, or outside the callee's calling hours); a number on a do-not-call list is 422
    `number_on_do_not_call`, one the account's `dialing_permissions` refuse (a country not allowed, a
    premium-rate, shared-cost, personal or satellite number) 400 `destination_not_allowed` naming `to`;
    follow it with `GET /v1/calls/{id}` or the `call.*` events. A live key needs Twilio, and `from` must
    be one of the organization's voice numbers or verified caller IDs (400 `from_not_owned`; absent: the
    agent's number, else the organization's first voice number); a test key simulates the call
    (`simulation`: the caller's lines, the outcome, ring and pause seconds). Needs the `calls:write`
    scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | CreateCallError]
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
    body: CreateCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Call | CreateCallError | None:
    """ Place a call

     Starts the call and answers `queued` at once (`scheduled` with a later `scheduled_at`, a closed
    `calling_window`, or outside the callee's calling hours); a number on a do-not-call list is 422
    `number_on_do_not_call`, one the account's `dialing_permissions` refuse (a country not allowed, a
    premium-rate, shared-cost, personal or satellite number) 400 `destination_not_allowed` naming `to`;
    follow it with `GET /v1/calls/{id}` or the `call.*` events. A live key needs Twilio, and `from` must
    be one of the organization's voice numbers or verified caller IDs (400 `from_not_owned`; absent: the
    agent's number, else the organization's first voice number); a test key simulates the call
    (`simulation`: the caller's lines, the outcome, ring and pause seconds). Needs the `calls:write`
    scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | CreateCallError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
