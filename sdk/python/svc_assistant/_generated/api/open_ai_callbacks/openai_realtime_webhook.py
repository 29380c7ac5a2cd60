from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.open_ai_webhook_received import OpenAIWebhookReceived
from ...models.openai_realtime_webhook_body import OpenaiRealtimeWebhookBody
from ...models.openai_realtime_webhook_error import OpenaiRealtimeWebhookError
from typing import cast



def _get_kwargs(
    *,
    body: OpenaiRealtimeWebhookBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/openai/realtime/webhook",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError:
    if response.status_code == 200:
        response_200 = OpenAIWebhookReceived.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = OpenaiRealtimeWebhookError.from_dict(response.json())



        return response_401

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OpenaiRealtimeWebhookBody,

) -> Response[ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError]:
    """ The OpenAI project's incoming SIP call webhook

     Configure it in the OpenAI project's webhooks (event `realtime.call.incoming`). Verified with
    `OPENAI_WEBHOOK_SECRET` (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-
    signature`); a call the service does not know is rejected on the Realtime side.

    Args:
        body (OpenaiRealtimeWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: OpenaiRealtimeWebhookBody,

) -> ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError | None:
    """ The OpenAI project's incoming SIP call webhook

     Configure it in the OpenAI project's webhooks (event `realtime.call.incoming`). Verified with
    `OPENAI_WEBHOOK_SECRET` (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-
    signature`); a call the service does not know is rejected on the Realtime side.

    Args:
        body (OpenaiRealtimeWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OpenaiRealtimeWebhookBody,

) -> Response[ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError]:
    """ The OpenAI project's incoming SIP call webhook

     Configure it in the OpenAI project's webhooks (event `realtime.call.incoming`). Verified with
    `OPENAI_WEBHOOK_SECRET` (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-
    signature`); a call the service does not know is rejected on the Realtime side.

    Args:
        body (OpenaiRealtimeWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: OpenaiRealtimeWebhookBody,

) -> ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError | None:
    """ The OpenAI project's incoming SIP call webhook

     Configure it in the OpenAI project's webhooks (event `realtime.call.incoming`). Verified with
    `OPENAI_WEBHOOK_SECRET` (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-
    signature`); a call the service does not know is rejected on the Realtime side.

    Args:
        body (OpenaiRealtimeWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | OpenAIWebhookReceived | OpenaiRealtimeWebhookError
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
