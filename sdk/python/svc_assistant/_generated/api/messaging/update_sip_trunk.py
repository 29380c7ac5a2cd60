from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.sip_trunk import SipTrunk
from ...models.update_sip_trunk_body import UpdateSipTrunkBody
from ...models.update_sip_trunk_error import UpdateSipTrunkError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: UpdateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sip_trunks/{id}".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | SipTrunk | UpdateSipTrunkError:
    if response.status_code == 200:
        response_200 = SipTrunk.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = UpdateSipTrunkError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = UpdateSipTrunkError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = UpdateSipTrunkError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = UpdateSipTrunkError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = UpdateSipTrunkError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = UpdateSipTrunkError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = UpdateSipTrunkError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = UpdateSipTrunkError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = UpdateSipTrunkError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = UpdateSipTrunkError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | SipTrunk | UpdateSipTrunkError]:
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
    body: UpdateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | SipTrunk | UpdateSipTrunkError]:
    """ Update a SIP trunk

     Only the fields given change; null clears `username`, `password`, `name`, `agent_id`. `numbers`
    replaces the set (numbers left out are released); `agent_id` is set on every number of the trunk; a
    new `termination_uri` is given to the live Connection Policy. A refusal changes nothing. Needs the
    `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | SipTrunk | UpdateSipTrunkError]
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
    body: UpdateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | SipTrunk | UpdateSipTrunkError | None:
    """ Update a SIP trunk

     Only the fields given change; null clears `username`, `password`, `name`, `agent_id`. `numbers`
    replaces the set (numbers left out are released); `agent_id` is set on every number of the trunk; a
    new `termination_uri` is given to the live Connection Policy. A refusal changes nothing. Needs the
    `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | SipTrunk | UpdateSipTrunkError
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
    body: UpdateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | SipTrunk | UpdateSipTrunkError]:
    """ Update a SIP trunk

     Only the fields given change; null clears `username`, `password`, `name`, `agent_id`. `numbers`
    replaces the set (numbers left out are released); `agent_id` is set on every number of the trunk; a
    new `termination_uri` is given to the live Connection Policy. A refusal changes nothing. Needs the
    `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | SipTrunk | UpdateSipTrunkError]
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
    body: UpdateSipTrunkBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | SipTrunk | UpdateSipTrunkError | None:
    """ Update a SIP trunk

     Only the fields given change; null clears `username`, `password`, `name`, `agent_id`. `numbers`
    replaces the set (numbers left out are released); `agent_id` is set on every number of the trunk; a
    new `termination_uri` is given to the live Connection Policy. A refusal changes nothing. Needs the
    `phone_numbers:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateSipTrunkBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | SipTrunk | UpdateSipTrunkError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
