from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.bulk_call_result_list import BulkCallResultList
from ...models.list_bulk_call_results_error import ListBulkCallResultsError
from ...models.list_bulk_call_results_status import ListBulkCallResultsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/bulk-calls/{id}/results".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | BulkCallResultList | ListBulkCallResultsError:
    if response.status_code == 200:
        response_200 = BulkCallResultList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListBulkCallResultsError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListBulkCallResultsError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListBulkCallResultsError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ListBulkCallResultsError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = ListBulkCallResultsError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListBulkCallResultsError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | BulkCallResultList | ListBulkCallResultsError]:
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
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> Response[ApiError | BulkCallResultList | ListBulkCallResultsError]:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV. Needs the
    `calls:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | BulkCallResultList | ListBulkCallResultsError]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,

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
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> ApiError | BulkCallResultList | ListBulkCallResultsError | None:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV. Needs the
    `calls:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | BulkCallResultList | ListBulkCallResultsError
     """


    return sync_detailed(
        id=id,
client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> Response[ApiError | BulkCallResultList | ListBulkCallResultsError]:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV. Needs the
    `calls:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | BulkCallResultList | ListBulkCallResultsError]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,

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
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> ApiError | BulkCallResultList | ListBulkCallResultsError | None:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV. Needs the
    `calls:read` scope.

    Args:
        id (str):
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | BulkCallResultList | ListBulkCallResultsError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,

    )).parsed
