from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.create_test_suite_run_body import CreateTestSuiteRunBody
from ...models.create_test_suite_run_error import CreateTestSuiteRunError
from ...models.test_suite_run import TestSuiteRun
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: CreateTestSuiteRunBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/test_suites/{id}/runs".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CreateTestSuiteRunError | TestSuiteRun:
    if response.status_code == 200:
        response_200 = TestSuiteRun.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateTestSuiteRunError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateTestSuiteRunError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateTestSuiteRunError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = CreateTestSuiteRunError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = CreateTestSuiteRunError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = CreateTestSuiteRunError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateTestSuiteRunError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = CreateTestSuiteRunError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = CreateTestSuiteRunError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateTestSuiteRunError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CreateTestSuiteRunError | TestSuiteRun]:
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
    body: CreateTestSuiteRunBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreateTestSuiteRunError | TestSuiteRun]:
    """ Run a test suite

     Runs every scenario as a simulated persona call (at most 5 at once, with the agent’s tools,
    knowledge and records as configured), then has a model judge each transcript against its rubric.
    Answers `running` at once; follow `GET /v1/test_suite_runs/{id}` or the `test_suite_run.completed`
    event. Test keys only. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteRunBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateTestSuiteRunError | TestSuiteRun]
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
    body: CreateTestSuiteRunBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreateTestSuiteRunError | TestSuiteRun | None:
    """ Run a test suite

     Runs every scenario as a simulated persona call (at most 5 at once, with the agent’s tools,
    knowledge and records as configured), then has a model judge each transcript against its rubric.
    Answers `running` at once; follow `GET /v1/test_suite_runs/{id}` or the `test_suite_run.completed`
    event. Test keys only. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteRunBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateTestSuiteRunError | TestSuiteRun
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
    body: CreateTestSuiteRunBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | CreateTestSuiteRunError | TestSuiteRun]:
    """ Run a test suite

     Runs every scenario as a simulated persona call (at most 5 at once, with the agent’s tools,
    knowledge and records as configured), then has a model judge each transcript against its rubric.
    Answers `running` at once; follow `GET /v1/test_suite_runs/{id}` or the `test_suite_run.completed`
    event. Test keys only. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteRunBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateTestSuiteRunError | TestSuiteRun]
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
    body: CreateTestSuiteRunBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | CreateTestSuiteRunError | TestSuiteRun | None:
    """ Run a test suite

     Runs every scenario as a simulated persona call (at most 5 at once, with the agent’s tools,
    knowledge and records as configured), then has a model judge each transcript against its rubric.
    Answers `running` at once; follow `GET /v1/test_suite_runs/{id}` or the `test_suite_run.completed`
    event. Test keys only. Needs the `agents:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (CreateTestSuiteRunBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateTestSuiteRunError | TestSuiteRun
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
