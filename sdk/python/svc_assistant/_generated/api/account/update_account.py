from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.account import Account
from ...models.api_error import ApiError
from ...models.update_account_body import UpdateAccountBody
from ...models.update_account_error import UpdateAccountError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: UpdateAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/account",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Account | ApiError | UpdateAccountError:
    if response.status_code == 200:
        response_200 = Account.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = UpdateAccountError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = UpdateAccountError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = UpdateAccountError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = UpdateAccountError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = UpdateAccountError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = UpdateAccountError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = UpdateAccountError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = UpdateAccountError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = UpdateAccountError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Account | ApiError | UpdateAccountError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[Account | ApiError | UpdateAccountError]:
    """ Update the account

     Sets the key's mode's retention (days to keep transcripts, messages, recordings, analyses and
    events; null keeps for ever; an hourly schedule deletes what is older, leaving calls and
    conversations as skeletons), PII redaction before storage, the Twilio Pay Connector card payments go
    through (`payments.connector`), the AI disclosure calls open with (`ai_disclosure`, on by default),
    the organization's calling hours (they only narrow the country defaults) and its dialing permissions
    (`dialing_permissions`: the countries and SIP domains its calls and transfers may reach, both
    modes). Secret keys only. Needs the `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (UpdateAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Account | ApiError | UpdateAccountError]
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
    body: UpdateAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> Account | ApiError | UpdateAccountError | None:
    """ Update the account

     Sets the key's mode's retention (days to keep transcripts, messages, recordings, analyses and
    events; null keeps for ever; an hourly schedule deletes what is older, leaving calls and
    conversations as skeletons), PII redaction before storage, the Twilio Pay Connector card payments go
    through (`payments.connector`), the AI disclosure calls open with (`ai_disclosure`, on by default),
    the organization's calling hours (they only narrow the country defaults) and its dialing permissions
    (`dialing_permissions`: the countries and SIP domains its calls and transfers may reach, both
    modes). Secret keys only. Needs the `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (UpdateAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Account | ApiError | UpdateAccountError
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[Account | ApiError | UpdateAccountError]:
    """ Update the account

     Sets the key's mode's retention (days to keep transcripts, messages, recordings, analyses and
    events; null keeps for ever; an hourly schedule deletes what is older, leaving calls and
    conversations as skeletons), PII redaction before storage, the Twilio Pay Connector card payments go
    through (`payments.connector`), the AI disclosure calls open with (`ai_disclosure`, on by default),
    the organization's calling hours (they only narrow the country defaults) and its dialing permissions
    (`dialing_permissions`: the countries and SIP domains its calls and transfers may reach, both
    modes). Secret keys only. Needs the `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (UpdateAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Account | ApiError | UpdateAccountError]
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
    body: UpdateAccountBody,
    idempotency_key: str | Unset = UNSET,

) -> Account | ApiError | UpdateAccountError | None:
    """ Update the account

     Sets the key's mode's retention (days to keep transcripts, messages, recordings, analyses and
    events; null keeps for ever; an hourly schedule deletes what is older, leaving calls and
    conversations as skeletons), PII redaction before storage, the Twilio Pay Connector card payments go
    through (`payments.connector`), the AI disclosure calls open with (`ai_disclosure`, on by default),
    the organization's calling hours (they only narrow the country defaults) and its dialing permissions
    (`dialing_permissions`: the countries and SIP domains its calls and transfers may reach, both
    modes). Secret keys only. Needs the `account:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (UpdateAccountBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Account | ApiError | UpdateAccountError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
