from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.twilio_pay_result_body import TwilioPayResultBody
from ...models.twilio_pay_result_error import TwilioPayResultError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    call_id: str,
    attempt: str,
    *,
    body: TwilioPayResultBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/twilio/pay/{call_id}/{attempt}".format(call_id=quote(str(call_id), safe=""),attempt=quote(str(attempt), safe=""),),
    }

    if not isinstance(body, Unset):
        _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | TwilioPayResultError | str:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = TwilioPayResultError.from_dict(response.json())



        return response_400

    if response.status_code == 403:
        response_403 = TwilioPayResultError.from_dict(response.json())



        return response_403

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | TwilioPayResultError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    call_id: str,
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: TwilioPayResultBody | Unset = UNSET,

) -> Response[ApiError | TwilioPayResultError | str]:
    """ A card payment's `<Pay>` action

     Twilio posts the outcome of `<Pay>` here; only the status, the last four digits and the confirmation
    code are kept, and the caller is brought back to the assistant.

    Args:
        call_id (str):
        attempt (str):
        body (TwilioPayResultBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | TwilioPayResultError | str]
     """


    kwargs = _get_kwargs(
        call_id=call_id,
attempt=attempt,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    call_id: str,
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: TwilioPayResultBody | Unset = UNSET,

) -> ApiError | TwilioPayResultError | str | None:
    """ A card payment's `<Pay>` action

     Twilio posts the outcome of `<Pay>` here; only the status, the last four digits and the confirmation
    code are kept, and the caller is brought back to the assistant.

    Args:
        call_id (str):
        attempt (str):
        body (TwilioPayResultBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | TwilioPayResultError | str
     """


    return sync_detailed(
        call_id=call_id,
attempt=attempt,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    call_id: str,
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: TwilioPayResultBody | Unset = UNSET,

) -> Response[ApiError | TwilioPayResultError | str]:
    """ A card payment's `<Pay>` action

     Twilio posts the outcome of `<Pay>` here; only the status, the last four digits and the confirmation
    code are kept, and the caller is brought back to the assistant.

    Args:
        call_id (str):
        attempt (str):
        body (TwilioPayResultBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | TwilioPayResultError | str]
     """


    kwargs = _get_kwargs(
        call_id=call_id,
attempt=attempt,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    call_id: str,
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: TwilioPayResultBody | Unset = UNSET,

) -> ApiError | TwilioPayResultError | str | None:
    """ A card payment's `<Pay>` action

     Twilio posts the outcome of `<Pay>` here; only the status, the last four digits and the confirmation
    code are kept, and the caller is brought back to the assistant.

    Args:
        call_id (str):
        attempt (str):
        body (TwilioPayResultBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | TwilioPayResultError | str
     """


    return (await asyncio_detailed(
        call_id=call_id,
attempt=attempt,
client=client,
body=body,

    )).parsed
