from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.call_list import CallList
from ...models.list_calls_created import ListCallsCreated
from ...models.list_calls_direction import ListCallsDirection
from ...models.list_calls_error import ListCallsError
from ...models.list_calls_status import ListCallsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListCallsStatus | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,
    bulk_call_id: str | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    contact_id: str | Unset = UNSET,
    created: ListCallsCreated | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["agent_id"] = agent_id

    params["agent_version"] = agent_version

    params["bulk_call_id"] = bulk_call_id

    json_direction: str | Unset = UNSET
    if not isinstance(direction, Unset):
        json_direction = direction.value

    params["direction"] = json_direction

    params["to"] = to

    params["from"] = from_

    params["contact_id"] = contact_id

    json_created: dict[str, Any] | Unset = UNSET
    if not isinstance(created, Unset):
        json_created = created.to_dict()
    if not isinstance(json_created, Unset):
        params.update(json_created)



    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/calls",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CallList | ListCallsError:
    if response.status_code == 200:
        response_200 = CallList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListCallsError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListCallsError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListCallsError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = ListCallsError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListCallsError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CallList | ListCallsError]:
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
    status: ListCallsStatus | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,
    bulk_call_id: str | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    contact_id: str | Unset = UNSET,
    created: ListCallsCreated | Unset = UNSET,

) -> Response[ApiError | CallList | ListCallsError]:
    """ List calls

     List calls. Needs the `calls:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListCallsStatus | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):
        bulk_call_id (str | Unset):
        direction (ListCallsDirection | Unset): `outbound`: the assistant dialed `to`; `inbound`:
            `from` called the number `to`.
        to (str | Unset): A valid phone number in E.164 format.
        from_ (str | Unset): A valid phone number in E.164 format.
        contact_id (str | Unset):
        created (ListCallsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CallList | ListCallsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,
agent_id=agent_id,
agent_version=agent_version,
bulk_call_id=bulk_call_id,
direction=direction,
to=to,
from_=from_,
contact_id=contact_id,
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
    status: ListCallsStatus | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,
    bulk_call_id: str | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    contact_id: str | Unset = UNSET,
    created: ListCallsCreated | Unset = UNSET,

) -> ApiError | CallList | ListCallsError | None:
    """ List calls

     List calls. Needs the `calls:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListCallsStatus | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):
        bulk_call_id (str | Unset):
        direction (ListCallsDirection | Unset): `outbound`: the assistant dialed `to`; `inbound`:
            `from` called the number `to`.
        to (str | Unset): A valid phone number in E.164 format.
        from_ (str | Unset): A valid phone number in E.164 format.
        contact_id (str | Unset):
        created (ListCallsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CallList | ListCallsError
     """


    return sync_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,
agent_id=agent_id,
agent_version=agent_version,
bulk_call_id=bulk_call_id,
direction=direction,
to=to,
from_=from_,
contact_id=contact_id,
created=created,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListCallsStatus | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,
    bulk_call_id: str | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    contact_id: str | Unset = UNSET,
    created: ListCallsCreated | Unset = UNSET,

) -> Response[ApiError | CallList | ListCallsError]:
    """ List calls

     List calls. Needs the `calls:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListCallsStatus | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):
        bulk_call_id (str | Unset):
        direction (ListCallsDirection | Unset): `outbound`: the assistant dialed `to`; `inbound`:
            `from` called the number `to`.
        to (str | Unset): A valid phone number in E.164 format.
        from_ (str | Unset): A valid phone number in E.164 format.
        contact_id (str | Unset):
        created (ListCallsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CallList | ListCallsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,
agent_id=agent_id,
agent_version=agent_version,
bulk_call_id=bulk_call_id,
direction=direction,
to=to,
from_=from_,
contact_id=contact_id,
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
    status: ListCallsStatus | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,
    bulk_call_id: str | Unset = UNSET,
    direction: ListCallsDirection | Unset = UNSET,
    to: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    contact_id: str | Unset = UNSET,
    created: ListCallsCreated | Unset = UNSET,

) -> ApiError | CallList | ListCallsError | None:
    """ List calls

     List calls. Needs the `calls:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListCallsStatus | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):
        bulk_call_id (str | Unset):
        direction (ListCallsDirection | Unset): `outbound`: the assistant dialed `to`; `inbound`:
            `from` called the number `to`.
        to (str | Unset): A valid phone number in E.164 format.
        from_ (str | Unset): A valid phone number in E.164 format.
        contact_id (str | Unset):
        created (ListCallsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CallList | ListCallsError
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,
agent_id=agent_id,
agent_version=agent_version,
bulk_call_id=bulk_call_id,
direction=direction,
to=to,
from_=from_,
contact_id=contact_id,
created=created,

    )).parsed
