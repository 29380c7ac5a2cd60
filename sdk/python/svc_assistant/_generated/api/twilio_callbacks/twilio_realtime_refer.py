from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.twilio_realtime_refer_body import TwilioRealtimeReferBody
from ...models.twilio_realtime_refer_error import TwilioRealtimeReferError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    call_id: str,
    *,
    body: TwilioRealtimeReferBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/twilio/voice/{call_id}/refer".format(call_id=quote(str(call_id), safe=""),),
    }

    if not isinstance(body, Unset):
        _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | TwilioRealtimeReferError | str:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = TwilioRealtimeReferError.from_dict(response.json())



        return response_400

    if response.status_code == 403:
        response_403 = TwilioRealtimeReferError.from_dict(response.json())



        return response_403

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | TwilioRealtimeReferError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    call_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioRealtimeReferBody | Unset = UNSET,

) -> Response[ApiError | TwilioRealtimeReferError | str]:
    """ A realtime call's SIP REFER, as Twilio asks what to do with it

     The `referUrl` of a realtime call's `<Dial><Sip>` leg: `<Dial>` to the destination the call's
    transfer chose (after the allow-list and the dialing permissions), `<Hangup/>` for any other
    `ReferTransferTarget`.

    Args:
        call_id (str):
        body (TwilioRealtimeReferBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | TwilioRealtimeReferError | str]
     """


    kwargs = _get_kwargs(
        call_id=call_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    call_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioRealtimeReferBody | Unset = UNSET,

) -> ApiError | TwilioRealtimeReferError | str | None:
    """ A realtime call's SIP REFER, as Twilio asks what to do with it

     The `referUrl` of a realtime call's `<Dial><Sip>` leg: `<Dial>` to the destination the call's
    transfer chose (after the allow-list and the dialing permissions), `<Hangup/>` for any other
    `ReferTransferTarget`.

    Args:
        call_id (str):
        body (TwilioRealtimeReferBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | TwilioRealtimeReferError | str
     """


    return sync_detailed(
        call_id=call_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    call_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioRealtimeReferBody | Unset = UNSET,

) -> Response[ApiError | TwilioRealtimeReferError | str]:
    """ A realtime call's SIP REFER, as Twilio asks what to do with it

     The `referUrl` of a realtime call's `<Dial><Sip>` leg: `<Dial>` to the destination the call's
    transfer chose (after the allow-list and the dialing permissions), `<Hangup/>` for any other
    `ReferTransferTarget`.

    Args:
        call_id (str):
        body (TwilioRealtimeReferBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | TwilioRealtimeReferError | str]
     """


    kwargs = _get_kwargs(
        call_id=call_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    call_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioRealtimeReferBody | Unset = UNSET,

) -> ApiError | TwilioRealtimeReferError | str | None:
    """ A realtime call's SIP REFER, as Twilio asks what to do with it

     The `referUrl` of a realtime call's `<Dial><Sip>` leg: `<Dial>` to the destination the call's
    transfer chose (after the allow-list and the dialing permissions), `<Hangup/>` for any other
    `ReferTransferTarget`.

    Args:
        call_id (str):
        body (TwilioRealtimeReferBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | TwilioRealtimeReferError | str
     """


    return (await asyncio_detailed(
        call_id=call_id,
client=client,
body=body,

    )).parsed
