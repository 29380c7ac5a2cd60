from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.twilio_inbound_call_body import TwilioInboundCallBody
from ...models.twilio_inbound_call_error import TwilioInboundCallError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: TwilioInboundCallBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/twilio/voice/inbound",
    }

    if not isinstance(body, Unset):
        _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | TwilioInboundCallError | str:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = TwilioInboundCallError.from_dict(response.json())



        return response_400

    if response.status_code == 403:
        response_403 = TwilioInboundCallError.from_dict(response.json())



        return response_403

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | TwilioInboundCallError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TwilioInboundCallBody | Unset = UNSET,

) -> Response[ApiError | TwilioInboundCallError | str]:
    """ An incoming call to a connected number

     Set as the Voice URL of the numbers connected with `voice`: the assistant answers
    (ConversationRelay), or the call is refused, forwarded to `overflow_to` or told all lines are busy.

    Args:
        body (TwilioInboundCallBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | TwilioInboundCallError | str]
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
    client: AuthenticatedClient,
    body: TwilioInboundCallBody | Unset = UNSET,

) -> ApiError | TwilioInboundCallError | str | None:
    """ An incoming call to a connected number

     Set as the Voice URL of the numbers connected with `voice`: the assistant answers
    (ConversationRelay), or the call is refused, forwarded to `overflow_to` or told all lines are busy.

    Args:
        body (TwilioInboundCallBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | TwilioInboundCallError | str
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TwilioInboundCallBody | Unset = UNSET,

) -> Response[ApiError | TwilioInboundCallError | str]:
    """ An incoming call to a connected number

     Set as the Voice URL of the numbers connected with `voice`: the assistant answers
    (ConversationRelay), or the call is refused, forwarded to `overflow_to` or told all lines are busy.

    Args:
        body (TwilioInboundCallBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | TwilioInboundCallError | str]
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
    client: AuthenticatedClient,
    body: TwilioInboundCallBody | Unset = UNSET,

) -> ApiError | TwilioInboundCallError | str | None:
    """ An incoming call to a connected number

     Set as the Voice URL of the numbers connected with `voice`: the assistant answers
    (ConversationRelay), or the call is refused, forwarded to `overflow_to` or told all lines are busy.

    Args:
        body (TwilioInboundCallBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | TwilioInboundCallError | str
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
