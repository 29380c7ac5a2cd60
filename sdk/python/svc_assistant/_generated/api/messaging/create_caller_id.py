from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.caller_id import CallerId
from ...models.create_caller_id_body import CreateCallerIdBody
from ...models.create_caller_id_error import CreateCallerIdError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateCallerIdBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/caller_ids",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CallerId | CreateCallerIdError:
    if response.status_code == 200:
        response_200 = CallerId.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateCallerIdError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateCallerIdError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateCallerIdError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = CreateCallerIdError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreateCallerIdError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateCallerIdError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreateCallerIdError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreateCallerIdError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateCallerIdError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CallerId | CreateCallerIdError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCallerIdBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CallerId | CreateCallerIdError]:
    """ Verify a caller ID

     Starts Twilio's verification call to the number; show `validation_code` to the person, who enters it
    on that call. The caller ID is `pending` until Twilio lists it among the account's Outgoing Caller
    IDs (checked whenever it is read or used as a call's `from`). Test keys: verified at once. Needs the
    `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallerIdBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CallerId | CreateCallerIdError]
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
    body: CreateCallerIdBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CallerId | CreateCallerIdError | None:
    """ Verify a caller ID

     Starts Twilio's verification call to the number; show `validation_code` to the person, who enters it
    on that call. The caller ID is `pending` until Twilio lists it among the account's Outgoing Caller
    IDs (checked whenever it is read or used as a call's `from`). Test keys: verified at once. Needs the
    `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallerIdBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CallerId | CreateCallerIdError
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCallerIdBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CallerId | CreateCallerIdError]:
    """ Verify a caller ID

     Starts Twilio's verification call to the number; show `validation_code` to the person, who enters it
    on that call. The caller ID is `pending` until Twilio lists it among the account's Outgoing Caller
    IDs (checked whenever it is read or used as a call's `from`). Test keys: verified at once. Needs the
    `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallerIdBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CallerId | CreateCallerIdError]
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
    body: CreateCallerIdBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CallerId | CreateCallerIdError | None:
    """ Verify a caller ID

     Starts Twilio's verification call to the number; show `validation_code` to the person, who enters it
    on that call. The caller ID is `pending` until Twilio lists it among the account's Outgoing Caller
    IDs (checked whenever it is read or used as a call's `from`). Test keys: verified at once. Needs the
    `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateCallerIdBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CallerId | CreateCallerIdError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
