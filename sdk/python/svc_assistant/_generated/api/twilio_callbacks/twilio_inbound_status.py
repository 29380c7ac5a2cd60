from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.twilio_inbound_status_body import TwilioInboundStatusBody
from ...models.twilio_inbound_status_error import TwilioInboundStatusError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: TwilioInboundStatusBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/twilio/status/inbound",
    }

    if not isinstance(body, Unset):
        _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ApiError | TwilioInboundStatusError:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = TwilioInboundStatusError.from_dict(response.json())



        return response_400

    if response.status_code == 403:
        response_403 = TwilioInboundStatusError.from_dict(response.json())



        return response_403

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ApiError | TwilioInboundStatusError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TwilioInboundStatusBody | Unset = UNSET,

) -> Response[Any | ApiError | TwilioInboundStatusError]:
    """ An inbound call's status callback

     An inbound call's status callback.

    Args:
        body (TwilioInboundStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ApiError | TwilioInboundStatusError]
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
    body: TwilioInboundStatusBody | Unset = UNSET,

) -> Any | ApiError | TwilioInboundStatusError | None:
    """ An inbound call's status callback

     An inbound call's status callback.

    Args:
        body (TwilioInboundStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ApiError | TwilioInboundStatusError
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TwilioInboundStatusBody | Unset = UNSET,

) -> Response[Any | ApiError | TwilioInboundStatusError]:
    """ An inbound call's status callback

     An inbound call's status callback.

    Args:
        body (TwilioInboundStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ApiError | TwilioInboundStatusError]
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
    body: TwilioInboundStatusBody | Unset = UNSET,

) -> Any | ApiError | TwilioInboundStatusError | None:
    """ An inbound call's status callback

     An inbound call's status callback.

    Args:
        body (TwilioInboundStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ApiError | TwilioInboundStatusError
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
