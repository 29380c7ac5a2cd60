from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.disconnect_telephony_account_error import DisconnectTelephonyAccountError
from ...models.telephony_connection import TelephonyConnection
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/telephony/connection",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | DisconnectTelephonyAccountError | TelephonyConnection:
    if response.status_code == 200:
        response_200 = TelephonyConnection.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = DisconnectTelephonyAccountError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = DisconnectTelephonyAccountError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = DisconnectTelephonyAccountError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = DisconnectTelephonyAccountError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = DisconnectTelephonyAccountError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | DisconnectTelephonyAccountError | TelephonyConnection]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | DisconnectTelephonyAccountError | TelephonyConnection]:
    """ Disconnect your own Twilio account

     The organization's live telephony runs in its subaccount of the platform's account again (created on
    next use); the connected account's secrets are erased. Calls in progress in the connected account
    can no longer be reached. Secret keys only. Needs the `account:write` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DisconnectTelephonyAccountError | TelephonyConnection]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> ApiError | DisconnectTelephonyAccountError | TelephonyConnection | None:
    """ Disconnect your own Twilio account

     The organization's live telephony runs in its subaccount of the platform's account again (created on
    next use); the connected account's secrets are erased. Calls in progress in the connected account
    can no longer be reached. Secret keys only. Needs the `account:write` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DisconnectTelephonyAccountError | TelephonyConnection
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | DisconnectTelephonyAccountError | TelephonyConnection]:
    """ Disconnect your own Twilio account

     The organization's live telephony runs in its subaccount of the platform's account again (created on
    next use); the connected account's secrets are erased. Calls in progress in the connected account
    can no longer be reached. Secret keys only. Needs the `account:write` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | DisconnectTelephonyAccountError | TelephonyConnection]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> ApiError | DisconnectTelephonyAccountError | TelephonyConnection | None:
    """ Disconnect your own Twilio account

     The organization's live telephony runs in its subaccount of the platform's account again (created on
    next use); the connected account's secrets are erased. Calls in progress in the connected account
    can no longer be reached. Secret keys only. Needs the `account:write` scope.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | DisconnectTelephonyAccountError | TelephonyConnection
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
