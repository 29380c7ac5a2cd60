from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.event_list import EventList
from ...models.list_events_created import ListEventsCreated
from ...models.list_events_error import ListEventsError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListEventsCreated | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    params["type"] = type_

    params["object_id"] = object_id

    json_created: dict[str, Any] | Unset = UNSET
    if not isinstance(created, Unset):
        json_created = created.to_dict()
    if not isinstance(json_created, Unset):
        params.update(json_created)



    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | EventList | ListEventsError:
    if response.status_code == 200:
        response_200 = EventList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListEventsError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListEventsError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListEventsError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = ListEventsError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListEventsError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | EventList | ListEventsError]:
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
    type_: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListEventsCreated | Unset = UNSET,

) -> Response[ApiError | EventList | ListEventsError]:
    """ List events

     List events. Needs the `events:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (str | Unset):
        object_id (str | Unset):
        created (ListEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | EventList | ListEventsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
type_=type_,
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
    type_: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListEventsCreated | Unset = UNSET,

) -> ApiError | EventList | ListEventsError | None:
    """ List events

     List events. Needs the `events:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (str | Unset):
        object_id (str | Unset):
        created (ListEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | EventList | ListEventsError
     """


    return sync_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
type_=type_,
object_id=object_id,
created=created,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListEventsCreated | Unset = UNSET,

) -> Response[ApiError | EventList | ListEventsError]:
    """ List events

     List events. Needs the `events:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (str | Unset):
        object_id (str | Unset):
        created (ListEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | EventList | ListEventsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
type_=type_,
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
    type_: str | Unset = UNSET,
    object_id: str | Unset = UNSET,
    created: ListEventsCreated | Unset = UNSET,

) -> ApiError | EventList | ListEventsError | None:
    """ List events

     List events. Needs the `events:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (str | Unset):
        object_id (str | Unset):
        created (ListEventsCreated | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | EventList | ListEventsError
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
type_=type_,
object_id=object_id,
created=created,

    )).parsed
