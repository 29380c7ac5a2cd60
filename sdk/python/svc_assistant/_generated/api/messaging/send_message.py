from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.message import Message
from ...models.send_message_body import SendMessageBody
from ...models.send_message_error import SendMessageError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: SendMessageBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/messages",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | Message | SendMessageError:
    if response.status_code == 200:
        response_200 = Message.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = SendMessageError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = SendMessageError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = SendMessageError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = SendMessageError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = SendMessageError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = SendMessageError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = SendMessageError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = SendMessageError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = SendMessageError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = SendMessageError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | Message | SendMessageError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SendMessageBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Message | SendMessageError]:
    """ Send a message

     On WhatsApp or SMS to a phone number, or on `web` to a widget visitor. Free-form text inside
    WhatsApp's 24-hour window, a `template` outside it (else 422 `whatsapp_window_closed`). 422 also for
    `recipient_opted_out` (the customer sent STOP on that channel), `whatsapp_number_not_connected` /
    `sms_number_not_connected` (live mode without a connected number) and `conversation_missing` (`web`
    to a visitor without a conversation). The answer is the message, `queued`; its progress comes as
    `message.sent`, `message.delivered` or `message.failed` events. Needs the `messages:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SendMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Message | SendMessageError]
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
    body: SendMessageBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Message | SendMessageError | None:
    """ Send a message

     On WhatsApp or SMS to a phone number, or on `web` to a widget visitor. Free-form text inside
    WhatsApp's 24-hour window, a `template` outside it (else 422 `whatsapp_window_closed`). 422 also for
    `recipient_opted_out` (the customer sent STOP on that channel), `whatsapp_number_not_connected` /
    `sms_number_not_connected` (live mode without a connected number) and `conversation_missing` (`web`
    to a visitor without a conversation). The answer is the message, `queued`; its progress comes as
    `message.sent`, `message.delivered` or `message.failed` events. Needs the `messages:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SendMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Message | SendMessageError
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SendMessageBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Message | SendMessageError]:
    """ Send a message

     On WhatsApp or SMS to a phone number, or on `web` to a widget visitor. Free-form text inside
    WhatsApp's 24-hour window, a `template` outside it (else 422 `whatsapp_window_closed`). 422 also for
    `recipient_opted_out` (the customer sent STOP on that channel), `whatsapp_number_not_connected` /
    `sms_number_not_connected` (live mode without a connected number) and `conversation_missing` (`web`
    to a visitor without a conversation). The answer is the message, `queued`; its progress comes as
    `message.sent`, `message.delivered` or `message.failed` events. Needs the `messages:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SendMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Message | SendMessageError]
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
    body: SendMessageBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Message | SendMessageError | None:
    """ Send a message

     On WhatsApp or SMS to a phone number, or on `web` to a widget visitor. Free-form text inside
    WhatsApp's 24-hour window, a `template` outside it (else 422 `whatsapp_window_closed`). 422 also for
    `recipient_opted_out` (the customer sent STOP on that channel), `whatsapp_number_not_connected` /
    `sms_number_not_connected` (live mode without a connected number) and `conversation_missing` (`web`
    to a visitor without a conversation). The answer is the message, `queued`; its progress comes as
    `message.sent`, `message.delivered` or `message.failed` events. Needs the `messages:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SendMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Message | SendMessageError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
