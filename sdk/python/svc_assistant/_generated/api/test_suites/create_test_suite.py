from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.create_test_suite_body import CreateTestSuiteBody
from ...models.create_test_suite_error import CreateTestSuiteError
from ...models.test_suite import TestSuite
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: CreateTestSuiteBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents/{id}/test_suites".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CreateTestSuiteError | TestSuite:
    if response.status_code == 200:
        response_200 = TestSuite.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateTestSuiteError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateTestSuiteError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateTestSuiteError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = CreateTestSuiteError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = CreateTestSuiteError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreateTestSuiteError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateTestSuiteError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreateTestSuiteError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreateTestSuiteError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateTestSuiteError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CreateTestSuiteError | TestSuite]:
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
    body: CreateTestSuiteBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreateTestSuiteError | TestSuite]:
    """ Create a test suite

     Scenarios of simulated callers (a persona and a goal, played by a model) and the rubric a judge
    checks each call against. 1 to 50 scenarios with unique names. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateTestSuiteError | TestSuite]
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
    body: CreateTestSuiteBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreateTestSuiteError | TestSuite | None:
    """ Create a test suite

     Scenarios of simulated callers (a persona and a goal, played by a model) and the rubric a judge
    checks each call against. 1 to 50 scenarios with unique names. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateTestSuiteError | TestSuite
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
    body: CreateTestSuiteBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreateTestSuiteError | TestSuite]:
    """ Create a test suite

     Scenarios of simulated callers (a persona and a goal, played by a model) and the rubric a judge
    checks each call against. 1 to 50 scenarios with unique names. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateTestSuiteError | TestSuite]
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
    body: CreateTestSuiteBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreateTestSuiteError | TestSuite | None:
    """ Create a test suite

     Scenarios of simulated callers (a persona and a goal, played by a model) and the rubric a judge
    checks each call against. 1 to 50 scenarios with unique names. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateTestSuiteError | TestSuite
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
