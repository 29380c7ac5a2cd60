from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.bulk_call import BulkCall
from ...models.create_bulk_call_body import CreateBulkCallBody
from ...models.create_bulk_call_error import CreateBulkCallError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateBulkCallBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/bulk-calls",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | BulkCall | CreateBulkCallError:
    if response.status_code == 200:
        response_200 = BulkCall.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateBulkCallError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateBulkCallError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateBulkCallError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = CreateBulkCallError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = CreateBulkCallError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreateBulkCallError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateBulkCallError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreateBulkCallError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreateBulkCallError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateBulkCallError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | BulkCall | CreateBulkCallError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateBulkCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | BulkCall | CreateBulkCallError]:
    """ Start a bulk call campaign

     Up to 10000 contacts; a bad row is a 400 naming it (`contacts[17].phone`); duplicate numbers are
    dialed once. Calling windows are local to each contact. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateBulkCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | BulkCall | CreateBulkCallError]
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
    body: CreateBulkCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | BulkCall | CreateBulkCallError | None:
    """ Start a bulk call campaign

     Up to 10000 contacts; a bad row is a 400 naming it (`contacts[17].phone`); duplicate numbers are
    dialed once. Calling windows are local to each contact. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateBulkCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | BulkCall | CreateBulkCallError
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateBulkCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | BulkCall | CreateBulkCallError]:
    """ Start a bulk call campaign

     Up to 10000 contacts; a bad row is a 400 naming it (`contacts[17].phone`); duplicate numbers are
    dialed once. Calling windows are local to each contact. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateBulkCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | BulkCall | CreateBulkCallError]
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
    body: CreateBulkCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | BulkCall | CreateBulkCallError | None:
    """ Start a bulk call campaign

     Up to 10000 contacts; a bad row is a 400 naming it (`contacts[17].phone`); duplicate numbers are
    dialed once. Calling windows are local to each contact. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (CreateBulkCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | BulkCall | CreateBulkCallError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
