from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.create_sip_trunk_body import CreateSipTrunkBody
from ...models.create_sip_trunk_error import CreateSipTrunkError
from ...models.sip_trunk import SipTrunk
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sip_trunks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CreateSipTrunkError | SipTrunk:
    if response.status_code == 200:
        response_200 = SipTrunk.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateSipTrunkError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateSipTrunkError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateSipTrunkError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = CreateSipTrunkError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = CreateSipTrunkError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreateSipTrunkError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateSipTrunkError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreateSipTrunkError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreateSipTrunkError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateSipTrunkError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CreateSipTrunkError | SipTrunk]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreateSipTrunkError | SipTrunk]:
    """ Register a SIP trunk (bring your own carrier)

     Live keys: a Connection Policy (target: `termination_uri`) and a BYOC trunk (Voice URL: the
    service's inbound webhook) are made in the organization's Twilio account; Twilio's refusal is 400
    `sip_trunk_rejected` with `twilio_code` and `twilio_message`, nothing stored. Each of `numbers`
    becomes one of the organization's phone numbers (`source: "sip_trunk"`): live calls from it dial
    `sip:<to>@<termination host>` with the trunk's credentials, calls arriving from the trunk are
    answered by `agent_id`. A number another organization holds is refused. Test keys: stored only. The
    password is never shown. Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateSipTrunkError | SipTrunk]
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
    body: CreateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreateSipTrunkError | SipTrunk | None:
    """ Register a SIP trunk (bring your own carrier)

     Live keys: a Connection Policy (target: `termination_uri`) and a BYOC trunk (Voice URL: the
    service's inbound webhook) are made in the organization's Twilio account; Twilio's refusal is 400
    `sip_trunk_rejected` with `twilio_code` and `twilio_message`, nothing stored. Each of `numbers`
    becomes one of the organization's phone numbers (`source: "sip_trunk"`): live calls from it dial
    `sip:<to>@<termination host>` with the trunk's credentials, calls arriving from the trunk are
    answered by `agent_id`. A number another organization holds is refused. Test keys: stored only. The
    password is never shown. Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateSipTrunkError | SipTrunk
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreateSipTrunkError | SipTrunk]:
    """ Register a SIP trunk (bring your own carrier)

     Live keys: a Connection Policy (target: `termination_uri`) and a BYOC trunk (Voice URL: the
    service's inbound webhook) are made in the organization's Twilio account; Twilio's refusal is 400
    `sip_trunk_rejected` with `twilio_code` and `twilio_message`, nothing stored. Each of `numbers`
    becomes one of the organization's phone numbers (`source: "sip_trunk"`): live calls from it dial
    `sip:<to>@<termination host>` with the trunk's credentials, calls arriving from the trunk are
    answered by `agent_id`. A number another organization holds is refused. Test keys: stored only. The
    password is never shown. Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateSipTrunkError | SipTrunk]
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
    body: CreateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreateSipTrunkError | SipTrunk | None:
    """ Register a SIP trunk (bring your own carrier)

     Live keys: a Connection Policy (target: `termination_uri`) and a BYOC trunk (Voice URL: the
    service's inbound webhook) are made in the organization's Twilio account; Twilio's refusal is 400
    `sip_trunk_rejected` with `twilio_code` and `twilio_message`, nothing stored. Each of `numbers`
    becomes one of the organization's phone numbers (`source: "sip_trunk"`): live calls from it dial
    `sip:<to>@<termination host>` with the trunk's credentials, calls arriving from the trunk are
    answered by `agent_id`. A number another organization holds is refused. Test keys: stored only. The
    password is never shown. Needs the `phone_numbers:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateSipTrunkError | SipTrunk
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
