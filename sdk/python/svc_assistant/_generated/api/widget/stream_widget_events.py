from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.stream_widget_events_error import StreamWidgetEventsError
from ...models.stream_widget_events_response_200 import StreamWidgetEventsResponse200
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    token: str,
    last_event_id: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["token"] = token

    params["last_event_id"] = last_event_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/widget/stream",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200:
    if response.status_code == 200:
        response_200 = StreamWidgetEventsResponse200.from_dict(response.text)



        return response_200

    if response.status_code == 400:
        response_400 = StreamWidgetEventsError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = StreamWidgetEventsError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = StreamWidgetEventsError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = StreamWidgetEventsError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = StreamWidgetEventsError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    token: str,
    last_event_id: int | Unset = UNSET,

) -> Response[ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200]:
    """ Stream the conversation (server-sent events)

     `text/event-stream`: each message of the conversation as `event: message`, `id:` its place in the
    conversation (1, 2, …), `data:` the message object; a `: heartbeat` comment every 15 s. Reconnect
    with `Last-Event-ID` (or `last_event_id`) to receive every message after it, once, in order. Open
    streams are capped per session (default 5), per organization and IP address (default 50) and per
    organization (default 2,000): beyond, 429 `rate_limit_error` with code `stream_limit_exceeded` and
    `Retry-After` (close a stream before opening another).

    Args:
        token (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200]
     """


    kwargs = _get_kwargs(
        token=token,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    token: str,
    last_event_id: int | Unset = UNSET,

) -> ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200 | None:
    """ Stream the conversation (server-sent events)

     `text/event-stream`: each message of the conversation as `event: message`, `id:` its place in the
    conversation (1, 2, …), `data:` the message object; a `: heartbeat` comment every 15 s. Reconnect
    with `Last-Event-ID` (or `last_event_id`) to receive every message after it, once, in order. Open
    streams are capped per session (default 5), per organization and IP address (default 50) and per
    organization (default 2,000): beyond, 429 `rate_limit_error` with code `stream_limit_exceeded` and
    `Retry-After` (close a stream before opening another).

    Args:
        token (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200
     """


    return sync_detailed(
        client=client,
token=token,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    token: str,
    last_event_id: int | Unset = UNSET,

) -> Response[ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200]:
    """ Stream the conversation (server-sent events)

     `text/event-stream`: each message of the conversation as `event: message`, `id:` its place in the
    conversation (1, 2, …), `data:` the message object; a `: heartbeat` comment every 15 s. Reconnect
    with `Last-Event-ID` (or `last_event_id`) to receive every message after it, once, in order. Open
    streams are capped per session (default 5), per organization and IP address (default 50) and per
    organization (default 2,000): beyond, 429 `rate_limit_error` with code `stream_limit_exceeded` and
    `Retry-After` (close a stream before opening another).

    Args:
        token (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200]
     """


    kwargs = _get_kwargs(
        token=token,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    token: str,
    last_event_id: int | Unset = UNSET,

) -> ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200 | None:
    """ Stream the conversation (server-sent events)

     `text/event-stream`: each message of the conversation as `event: message`, `id:` its place in the
    conversation (1, 2, …), `data:` the message object; a `: heartbeat` comment every 15 s. Reconnect
    with `Last-Event-ID` (or `last_event_id`) to receive every message after it, once, in order. Open
    streams are capped per session (default 5), per organization and IP address (default 50) and per
    organization (default 2,000): beyond, 429 `rate_limit_error` with code `stream_limit_exceeded` and
    `Retry-After` (close a stream before opening another).

    Args:
        token (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | StreamWidgetEventsError | StreamWidgetEventsResponse200
     """


    return (await asyncio_detailed(
        client=client,
token=token,
last_event_id=last_event_id,

    )).parsed
