from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.list_bulk_call_results_response_200 import ListBulkCallResultsResponse200
from ...models.list_bulk_call_results_status import ListBulkCallResultsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    limit: str | Unset = UNSET,
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



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ListBulkCallResultsResponse200:
    if response.status_code == 200:
        response_200 = ListBulkCallResultsResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    response_default = Error.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | ListBulkCallResultsResponse200]:
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
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> Response[Error | ListBulkCallResultsResponse200]:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV.

    Args:
        id (str):
        limit (str | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListBulkCallResultsResponse200]
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
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> Error | ListBulkCallResultsResponse200 | None:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV.

    Args:
        id (str):
        limit (str | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListBulkCallResultsResponse200
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
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> Response[Error | ListBulkCallResultsResponse200]:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV.

    Args:
        id (str):
        limit (str | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListBulkCallResultsResponse200]
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
    limit: str | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    status: ListBulkCallResultsStatus | Unset = UNSET,

) -> Error | ListBulkCallResultsResponse200 | None:
    """ List a campaign's results

     One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV.

    Args:
        id (str):
        limit (str | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        status (ListBulkCallResultsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListBulkCallResultsResponse200
     """


    return (await asyncio_detailed(
        id=id,
client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
status=status,

    )).parsed
