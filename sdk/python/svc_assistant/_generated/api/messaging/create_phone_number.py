from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.create_phone_number_body import CreatePhoneNumberBody
from ...models.create_phone_number_error import CreatePhoneNumberError
from ...models.phone_number import PhoneNumber
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/phone_numbers",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CreatePhoneNumberError | PhoneNumber:
    if response.status_code == 200:
        response_200 = PhoneNumber.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreatePhoneNumberError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreatePhoneNumberError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreatePhoneNumberError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = CreatePhoneNumberError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = CreatePhoneNumberError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreatePhoneNumberError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreatePhoneNumberError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreatePhoneNumberError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreatePhoneNumberError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreatePhoneNumberError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CreatePhoneNumberError | PhoneNumber]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreatePhoneNumberError | PhoneNumber]:
    """ Buy, import or (test mode) simulate a number for messaging and calls

     Test keys: a simulated number. Live keys: imported when the organization's Twilio account holds it,
    else bought in the organization's subaccount (Voice and SMS URLs set to the service); a connected
    account must already hold it (400 `phone_number_not_owned`). Twilio's refusal to sell (no such
    number, region rules, address required) is 400 `phone_number_purchase_failed` with `twilio_code` and
    `twilio_message`; nothing is stored. A number another organization holds is refused the same way.
    Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreatePhoneNumberError | PhoneNumber]
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
    body: CreatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreatePhoneNumberError | PhoneNumber | None:
    """ Buy, import or (test mode) simulate a number for messaging and calls

     Test keys: a simulated number. Live keys: imported when the organization's Twilio account holds it,
    else bought in the organization's subaccount (Voice and SMS URLs set to the service); a connected
    account must already hold it (400 `phone_number_not_owned`). Twilio's refusal to sell (no such
    number, region rules, address required) is 400 `phone_number_purchase_failed` with `twilio_code` and
    `twilio_message`; nothing is stored. A number another organization holds is refused the same way.
    Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreatePhoneNumberError | PhoneNumber
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreatePhoneNumberError | PhoneNumber]:
    """ Buy, import or (test mode) simulate a number for messaging and calls

     Test keys: a simulated number. Live keys: imported when the organization's Twilio account holds it,
    else bought in the organization's subaccount (Voice and SMS URLs set to the service); a connected
    account must already hold it (400 `phone_number_not_owned`). Twilio's refusal to sell (no such
    number, region rules, address required) is 400 `phone_number_purchase_failed` with `twilio_code` and
    `twilio_message`; nothing is stored. A number another organization holds is refused the same way.
    Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreatePhoneNumberError | PhoneNumber]
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
    body: CreatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreatePhoneNumberError | PhoneNumber | None:
    """ Buy, import or (test mode) simulate a number for messaging and calls

     Test keys: a simulated number. Live keys: imported when the organization's Twilio account holds it,
    else bought in the organization's subaccount (Voice and SMS URLs set to the service); a connected
    account must already hold it (400 `phone_number_not_owned`). Twilio's refusal to sell (no such
    number, region rules, address required) is 400 `phone_number_purchase_failed` with `twilio_code` and
    `twilio_message`; nothing is stored. A number another organization holds is refused the same way.
    Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreatePhoneNumberError | PhoneNumber
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
