from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.twilio_message_status_of_body import TwilioMessageStatusOfBody
from ...models.twilio_message_status_of_error import TwilioMessageStatusOfError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    message_id: str,
    *,
    body: TwilioMessageStatusOfBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/twilio/messaging/status/{message_id}".format(message_id=quote(str(message_id), safe=""),),
    }

    if not isinstance(body, Unset):
        _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ApiError | TwilioMessageStatusOfError:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = TwilioMessageStatusOfError.from_dict(response.json())



        return response_400

    if response.status_code == 403:
        response_403 = TwilioMessageStatusOfError.from_dict(response.json())



        return response_403

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ApiError | TwilioMessageStatusOfError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioMessageStatusOfBody | Unset = UNSET,

) -> Response[Any | ApiError | TwilioMessageStatusOfError]:
    """ A sent message's status callback

     A sent message's status callback.

    Args:
        message_id (str):
        body (TwilioMessageStatusOfBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ApiError | TwilioMessageStatusOfError]
     """


    kwargs = _get_kwargs(
        message_id=message_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioMessageStatusOfBody | Unset = UNSET,

) -> Any | ApiError | TwilioMessageStatusOfError | None:
    """ A sent message's status callback

     A sent message's status callback.

    Args:
        message_id (str):
        body (TwilioMessageStatusOfBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ApiError | TwilioMessageStatusOfError
     """


    return sync_detailed(
        message_id=message_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioMessageStatusOfBody | Unset = UNSET,

) -> Response[Any | ApiError | TwilioMessageStatusOfError]:
    """ A sent message's status callback

     A sent message's status callback.

    Args:
        message_id (str):
        body (TwilioMessageStatusOfBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ApiError | TwilioMessageStatusOfError]
     """


    kwargs = _get_kwargs(
        message_id=message_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: TwilioMessageStatusOfBody | Unset = UNSET,

) -> Any | ApiError | TwilioMessageStatusOfError | None:
    """ A sent message's status callback

     A sent message's status callback.

    Args:
        message_id (str):
        body (TwilioMessageStatusOfBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ApiError | TwilioMessageStatusOfError
     """


    return (await asyncio_detailed(
        message_id=message_id,
client=client,
body=body,

    )).parsed
