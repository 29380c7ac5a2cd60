from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.connect_telephony_account_body import ConnectTelephonyAccountBody
from ...models.connect_telephony_account_error import ConnectTelephonyAccountError
from ...models.telephony_connection import TelephonyConnection
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: ConnectTelephonyAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/telephony/connection",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | ConnectTelephonyAccountError | TelephonyConnection:
    if response.status_code == 200:
        response_200 = TelephonyConnection.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ConnectTelephonyAccountError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | ConnectTelephonyAccountError | TelephonyConnection]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ConnectTelephonyAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | ConnectTelephonyAccountError | TelephonyConnection]:
    """ Connect your own Twilio account

     From then on the organization's live calls and messages run in its own Twilio account, with the API
    key; the auth token only verifies its webhooks. Verified with Twilio first: 400
    `twilio_credentials_invalid` and nothing stored when Twilio refuses. Secret keys only. Needs the
    `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (ConnectTelephonyAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConnectTelephonyAccountError | TelephonyConnection]
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
    body: ConnectTelephonyAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | ConnectTelephonyAccountError | TelephonyConnection | None:
    """ Connect your own Twilio account

     From then on the organization's live calls and messages run in its own Twilio account, with the API
    key; the auth token only verifies its webhooks. Verified with Twilio first: 400
    `twilio_credentials_invalid` and nothing stored when Twilio refuses. Secret keys only. Needs the
    `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (ConnectTelephonyAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConnectTelephonyAccountError | TelephonyConnection
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ConnectTelephonyAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | ConnectTelephonyAccountError | TelephonyConnection]:
    """ Connect your own Twilio account

     From then on the organization's live calls and messages run in its own Twilio account, with the API
    key; the auth token only verifies its webhooks. Verified with Twilio first: 400
    `twilio_credentials_invalid` and nothing stored when Twilio refuses. Secret keys only. Needs the
    `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (ConnectTelephonyAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConnectTelephonyAccountError | TelephonyConnection]
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
    body: ConnectTelephonyAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | ConnectTelephonyAccountError | TelephonyConnection | None:
    """ Connect your own Twilio account

     From then on the organization's live calls and messages run in its own Twilio account, with the API
    key; the auth token only verifies its webhooks. Verified with Twilio first: 400
    `twilio_credentials_invalid` and nothing stored when Twilio refuses. Secret keys only. Needs the
    `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (ConnectTelephonyAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConnectTelephonyAccountError | TelephonyConnection
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
