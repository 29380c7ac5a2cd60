from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.twilio_call_status_body import TwilioCallStatusBody
from ...models.twilio_call_status_error import TwilioCallStatusError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    call_id: str,
    *,
    body: TwilioCallStatusBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/twilio/status/{call_id}".format(call_id=quote(str(call_id), safe=""),),
    }

    if not isinstance(body, Unset):
        _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ApiError | TwilioCallStatusError:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = TwilioCallStatusError.from_dict(response.json())



        return response_400

    if response.status_code == 403:
        response_403 = TwilioCallStatusError.from_dict(response.json())



        return response_403

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ApiError | TwilioCallStatusError]:
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
    body: TwilioCallStatusBody | Unset = UNSET,

) -> Response[Any | ApiError | TwilioCallStatusError]:
    """ A live call's status callback

     A live call's status callback.

    Args:
        call_id (str):
        body (TwilioCallStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ApiError | TwilioCallStatusError]
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
    body: TwilioCallStatusBody | Unset = UNSET,

) -> Any | ApiError | TwilioCallStatusError | None:
    """ A live call's status callback

     A live call's status callback.

    Args:
        call_id (str):
        body (TwilioCallStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ApiError | TwilioCallStatusError
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
    body: TwilioCallStatusBody | Unset = UNSET,

) -> Response[Any | ApiError | TwilioCallStatusError]:
    """ A live call's status callback

     A live call's status callback.

    Args:
        call_id (str):
        body (TwilioCallStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ApiError | TwilioCallStatusError]
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
    body: TwilioCallStatusBody | Unset = UNSET,

) -> Any | ApiError | TwilioCallStatusError | None:
    """ A live call's status callback

     A live call's status callback.

    Args:
        call_id (str):
        body (TwilioCallStatusBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ApiError | TwilioCallStatusError
     """


    return (await asyncio_detailed(
        call_id=call_id,
client=client,
body=body,

    )).parsed
