from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.retrieve_usage_error import RetrieveUsageError
from ...models.usage import Usage
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    timezone: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["timezone"] = timezone

    params["agent_id"] = agent_id

    params["agent_version"] = agent_version


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/usage",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | RetrieveUsageError | Usage:
    if response.status_code == 200:
        response_200 = Usage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveUsageError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveUsageError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveUsageError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = RetrieveUsageError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveUsageError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | RetrieveUsageError | Usage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    timezone: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,

) -> Response[ApiError | RetrieveUsageError | Usage]:
    """ Retrieve usage

     Local days of `timezone`, inclusive; `from` defaults to the first of the month, `to` to today; at
    most 366 days. Needs the `usage:read` scope.

    Args:
        from_ (str | Unset):
        to (str | Unset):
        timezone (str | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | RetrieveUsageError | Usage]
     """


    kwargs = _get_kwargs(
        from_=from_,
to=to,
timezone=timezone,
agent_id=agent_id,
agent_version=agent_version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    timezone: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,

) -> ApiError | RetrieveUsageError | Usage | None:
    """ Retrieve usage

     Local days of `timezone`, inclusive; `from` defaults to the first of the month, `to` to today; at
    most 366 days. Needs the `usage:read` scope.

    Args:
        from_ (str | Unset):
        to (str | Unset):
        timezone (str | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | RetrieveUsageError | Usage
     """


    return sync_detailed(
        client=client,
from_=from_,
to=to,
timezone=timezone,
agent_id=agent_id,
agent_version=agent_version,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    timezone: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,

) -> Response[ApiError | RetrieveUsageError | Usage]:
    """ Retrieve usage

     Local days of `timezone`, inclusive; `from` defaults to the first of the month, `to` to today; at
    most 366 days. Needs the `usage:read` scope.

    Args:
        from_ (str | Unset):
        to (str | Unset):
        timezone (str | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | RetrieveUsageError | Usage]
     """


    kwargs = _get_kwargs(
        from_=from_,
to=to,
timezone=timezone,
agent_id=agent_id,
agent_version=agent_version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    timezone: str | Unset = UNSET,
    agent_id: str | Unset = UNSET,
    agent_version: str | Unset = UNSET,

) -> ApiError | RetrieveUsageError | Usage | None:
    """ Retrieve usage

     Local days of `timezone`, inclusive; `from` defaults to the first of the month, `to` to today; at
    most 366 days. Needs the `usage:read` scope.

    Args:
        from_ (str | Unset):
        to (str | Unset):
        timezone (str | Unset):
        agent_id (str | Unset):
        agent_version (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | RetrieveUsageError | Usage
     """


    return (await asyncio_detailed(
        client=client,
from_=from_,
to=to,
timezone=timezone,
agent_id=agent_id,
agent_version=agent_version,

    )).parsed
