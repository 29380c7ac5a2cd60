from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.list_test_suites_error import ListTestSuitesError
from ...models.test_suite_list import TestSuiteList
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/agents/{id}/test_suites".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | ListTestSuitesError | TestSuiteList:
    if response.status_code == 200:
        response_200 = TestSuiteList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListTestSuitesError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListTestSuitesError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListTestSuitesError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ListTestSuitesError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = ListTestSuitesError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListTestSuitesError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | ListTestSuitesError | TestSuiteList]:
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
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,

) -> Response[ApiError | ListTestSuitesError | TestSuiteList]:
    """ List an agent's test suites

     List an agent's test suites. Needs the `agents:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ListTestSuitesError | TestSuiteList]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,

) -> ApiError | ListTestSuitesError | TestSuiteList | None:
    """ List an agent's test suites

     List an agent's test suites. Needs the `agents:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ListTestSuitesError | TestSuiteList
     """


    return sync_detailed(
        id=id,
client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,

) -> Response[ApiError | ListTestSuitesError | TestSuiteList]:
    """ List an agent's test suites

     List an agent's test suites. Needs the `agents:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ListTestSuitesError | TestSuiteList]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,

) -> ApiError | ListTestSuitesError | TestSuiteList | None:
    """ List an agent's test suites

     List an agent's test suites. Needs the `agents:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ListTestSuitesError | TestSuiteList
     """


    return (await asyncio_detailed(
        id=id,
client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,

    )).parsed
