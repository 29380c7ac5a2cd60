from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.phone_number import PhoneNumber
from ...models.update_phone_number_body import UpdatePhoneNumberBody
from ...models.update_phone_number_error import UpdatePhoneNumberError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: UpdatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/phone_numbers/{id}".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | PhoneNumber | UpdatePhoneNumberError:
    if response.status_code == 200:
        response_200 = PhoneNumber.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = UpdatePhoneNumberError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = UpdatePhoneNumberError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = UpdatePhoneNumberError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = UpdatePhoneNumberError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = UpdatePhoneNumberError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = UpdatePhoneNumberError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = UpdatePhoneNumberError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = UpdatePhoneNumberError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = UpdatePhoneNumberError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = UpdatePhoneNumberError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | PhoneNumber | UpdatePhoneNumberError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | PhoneNumber | UpdatePhoneNumberError]:
    """ Update a connected number

     Only the fields given change; null clears `agent_id`, `inbound_webhook_url`,
    `inbound_webhook_timeout_ms`, `overflow_to`. Needs the `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | PhoneNumber | UpdatePhoneNumberError]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | PhoneNumber | UpdatePhoneNumberError | None:
    """ Update a connected number

     Only the fields given change; null clears `agent_id`, `inbound_webhook_url`,
    `inbound_webhook_timeout_ms`, `overflow_to`. Needs the `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | PhoneNumber | UpdatePhoneNumberError
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | PhoneNumber | UpdatePhoneNumberError]:
    """ Update a connected number

     Only the fields given change; null clears `agent_id`, `inbound_webhook_url`,
    `inbound_webhook_timeout_ms`, `overflow_to`. Needs the `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | PhoneNumber | UpdatePhoneNumberError]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdatePhoneNumberBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | PhoneNumber | UpdatePhoneNumberError | None:
    """ Update a connected number

     Only the fields given change; null clears `agent_id`, `inbound_webhook_url`,
    `inbound_webhook_timeout_ms`, `overflow_to`. Needs the `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdatePhoneNumberBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | PhoneNumber | UpdatePhoneNumberError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
