from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.audit_event_list import AuditEventList
from ...models.list_audit_events_created import ListAuditEventsCreated
from ...models.list_audit_events_error import ListAuditEventsError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    action: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListAuditEventsCreated | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    params["actor"] = actor

    params["action"] = action

    params["object_id"] = object_id

    json_created: dict[str, Any] | Unset = UNSET
    if not isinstance(created, Unset):
        json_created = created.to_dict()
    if not isinstance(json_created, Unset):
        params.update(json_created)



    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/audit_events",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | AuditEventList | ListAuditEventsError:
    if response.status_code == 200:
        response_200 = AuditEventList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListAuditEventsError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListAuditEventsError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListAuditEventsError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = ListAuditEventsError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListAuditEventsError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | AuditEventList | ListAuditEventsError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    action: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListAuditEventsCreated | Unset = UNSET,

) -> Response[ApiError | AuditEventList | ListAuditEventsError]:
    """ List audit entries

     Every state-changing request (POST, DELETE), console action and read of a recording or transcript of
    this organization in this mode, newest first. Needs the `audit:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        actor (str | Unset):
        action (str | Unset):
        object_id (str | Unset):
        created (ListAuditEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | AuditEventList | ListAuditEventsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
actor=actor,
action=action,
object_id=object_id,
created=created,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    action: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListAuditEventsCreated | Unset = UNSET,

) -> ApiError | AuditEventList | ListAuditEventsError | None:
    """ List audit entries

     Every state-changing request (POST, DELETE), console action and read of a recording or transcript of
    this organization in this mode, newest first. Needs the `audit:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        actor (str | Unset):
        action (str | Unset):
        object_id (str | Unset):
        created (ListAuditEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | AuditEventList | ListAuditEventsError
     """


    return sync_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
actor=actor,
action=action,
object_id=object_id,
created=created,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    action: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListAuditEventsCreated | Unset = UNSET,

) -> Response[ApiError | AuditEventList | ListAuditEventsError]:
    """ List audit entries

     Every state-changing request (POST, DELETE), console action and read of a recording or transcript of
    this organization in this mode, newest first. Needs the `audit:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        actor (str | Unset):
        action (str | Unset):
        object_id (str | Unset):
        created (ListAuditEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | AuditEventList | ListAuditEventsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
actor=actor,
action=action,
object_id=object_id,
created=created,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    action: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListAuditEventsCreated | Unset = UNSET,

) -> ApiError | AuditEventList | ListAuditEventsError | None:
    """ List audit entries

     Every state-changing request (POST, DELETE), console action and read of a recording or transcript of
    this organization in this mode, newest first. Needs the `audit:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        actor (str | Unset):
        action (str | Unset):
        object_id (str | Unset):
        created (ListAuditEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | AuditEventList | ListAuditEventsError
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
actor=actor,
action=action,
object_id=object_id,
created=created,

    )).parsed
