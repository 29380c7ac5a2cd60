from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.stream_call_error import StreamCallError
from ...models.stream_call_response_200 import StreamCallResponse200
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    last_event_id: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["last_event_id"] = last_event_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/calls/{id}/stream".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | StreamCallError | StreamCallResponse200:
    if response.status_code == 200:
        response_200 = StreamCallResponse200.from_dict(response.text)



        return response_200

    if response.status_code == 400:
        response_400 = StreamCallError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = StreamCallError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = StreamCallError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = StreamCallError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = StreamCallError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = StreamCallError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | StreamCallError | StreamCallResponse200]:
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
    last_event_id: int | Unset = UNSET,

) -> Response[ApiError | StreamCallError | StreamCallResponse200]:
    """ Stream a live call (server-sent events)

     `text/event-stream` from the first status change to the end: `event: status` (`data`: `{status,
    events, at, end_reason?, transferred_to?, answered_by?, error?}`; `transfer` when it carries a
    `call.transfer…` event), `event: turn` (each turn once final, as the transcript shows it, with its
    `seq`; `author: "api"` for lines said and notes added through the API), `event: tool_call` (a tool
    turn), `event: end` (the terminal status), then the stream closes. `id:` is the event's place in the
    call's stream (1, 2, …); a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or
    `last_event_id`) to any API process to receive every event after it, once, in order. Open streams
    (this route and the console's) are capped across API processes per API key (default 100), per client
    IP address (default 200) and per organization (default 1,000): beyond, 429 `rate_limit_error` with
    code `too_many_streams` and `Retry-After: 5` (end a stream before opening another; the operator sets
    the caps with `API_STREAMS_PER_KEY`, `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`). Needs the
    `calls:read` scope.

    Args:
        id (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | StreamCallError | StreamCallResponse200]
     """


    kwargs = _get_kwargs(
        id=id,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: int | Unset = UNSET,

) -> ApiError | StreamCallError | StreamCallResponse200 | None:
    """ Stream a live call (server-sent events)

     `text/event-stream` from the first status change to the end: `event: status` (`data`: `{status,
    events, at, end_reason?, transferred_to?, answered_by?, error?}`; `transfer` when it carries a
    `call.transfer…` event), `event: turn` (each turn once final, as the transcript shows it, with its
    `seq`; `author: "api"` for lines said and notes added through the API), `event: tool_call` (a tool
    turn), `event: end` (the terminal status), then the stream closes. `id:` is the event's place in the
    call's stream (1, 2, …); a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or
    `last_event_id`) to any API process to receive every event after it, once, in order. Open streams
    (this route and the console's) are capped across API processes per API key (default 100), per client
    IP address (default 200) and per organization (default 1,000): beyond, 429 `rate_limit_error` with
    code `too_many_streams` and `Retry-After: 5` (end a stream before opening another; the operator sets
    the caps with `API_STREAMS_PER_KEY`, `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`). Needs the
    `calls:read` scope.

    Args:
        id (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | StreamCallError | StreamCallResponse200
     """


    return sync_detailed(
        id=id,
client=client,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: int | Unset = UNSET,

) -> Response[ApiError | StreamCallError | StreamCallResponse200]:
    """ Stream a live call (server-sent events)

     `text/event-stream` from the first status change to the end: `event: status` (`data`: `{status,
    events, at, end_reason?, transferred_to?, answered_by?, error?}`; `transfer` when it carries a
    `call.transfer…` event), `event: turn` (each turn once final, as the transcript shows it, with its
    `seq`; `author: "api"` for lines said and notes added through the API), `event: tool_call` (a tool
    turn), `event: end` (the terminal status), then the stream closes. `id:` is the event's place in the
    call's stream (1, 2, …); a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or
    `last_event_id`) to any API process to receive every event after it, once, in order. Open streams
    (this route and the console's) are capped across API processes per API key (default 100), per client
    IP address (default 200) and per organization (default 1,000): beyond, 429 `rate_limit_error` with
    code `too_many_streams` and `Retry-After: 5` (end a stream before opening another; the operator sets
    the caps with `API_STREAMS_PER_KEY`, `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`). Needs the
    `calls:read` scope.

    Args:
        id (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | StreamCallError | StreamCallResponse200]
     """


    kwargs = _get_kwargs(
        id=id,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    last_event_id: int | Unset = UNSET,

) -> ApiError | StreamCallError | StreamCallResponse200 | None:
    """ Stream a live call (server-sent events)

     `text/event-stream` from the first status change to the end: `event: status` (`data`: `{status,
    events, at, end_reason?, transferred_to?, answered_by?, error?}`; `transfer` when it carries a
    `call.transfer…` event), `event: turn` (each turn once final, as the transcript shows it, with its
    `seq`; `author: "api"` for lines said and notes added through the API), `event: tool_call` (a tool
    turn), `event: end` (the terminal status), then the stream closes. `id:` is the event's place in the
    call's stream (1, 2, …); a `: heartbeat` comment every 15 s. Reconnect with `Last-Event-ID` (or
    `last_event_id`) to any API process to receive every event after it, once, in order. Open streams
    (this route and the console's) are capped across API processes per API key (default 100), per client
    IP address (default 200) and per organization (default 1,000): beyond, 429 `rate_limit_error` with
    code `too_many_streams` and `Retry-After: 5` (end a stream before opening another; the operator sets
    the caps with `API_STREAMS_PER_KEY`, `API_STREAMS_PER_IP`, `API_STREAMS_PER_ORG`). Needs the
    `calls:read` scope.

    Args:
        id (str):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | StreamCallError | StreamCallResponse200
     """


    return (await asyncio_detailed(
        id=id,
client=client,
last_event_id=last_event_id,

    )).parsed
