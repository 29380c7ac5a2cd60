from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.call import Call
from ...models.simulate_inbound_call_body import SimulateInboundCallBody
from ...models.simulate_inbound_call_error import SimulateInboundCallError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: SimulateInboundCallBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/test_helpers/inbound_calls",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | Call | SimulateInboundCallError:
    if response.status_code == 200:
        response_200 = Call.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = SimulateInboundCallError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = SimulateInboundCallError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = SimulateInboundCallError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = SimulateInboundCallError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = SimulateInboundCallError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = SimulateInboundCallError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = SimulateInboundCallError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = SimulateInboundCallError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = SimulateInboundCallError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | Call | SimulateInboundCallError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SimulateInboundCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Call | SimulateInboundCallError]:
    """ Simulate an inbound call (test mode)

     As if `from` had called a service number: the assistant answers as it would live (the number's agent
    or inbound webhook, the concurrency limit); the response is the call. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SimulateInboundCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | SimulateInboundCallError]
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
    body: SimulateInboundCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Call | SimulateInboundCallError | None:
    """ Simulate an inbound call (test mode)

     As if `from` had called a service number: the assistant answers as it would live (the number's agent
    or inbound webhook, the concurrency limit); the response is the call. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SimulateInboundCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | SimulateInboundCallError
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SimulateInboundCallBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Call | SimulateInboundCallError]:
    """ Simulate an inbound call (test mode)

     As if `from` had called a service number: the assistant answers as it would live (the number's agent
    or inbound webhook, the concurrency limit); the response is the call. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SimulateInboundCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Call | SimulateInboundCallError]
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
    body: SimulateInboundCallBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Call | SimulateInboundCallError | None:
    """ Simulate an inbound call (test mode)

     As if `from` had called a service number: the assistant answers as it would live (the number's agent
    or inbound webhook, the concurrency limit); the response is the call. Needs the `calls:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (SimulateInboundCallBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Call | SimulateInboundCallError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
