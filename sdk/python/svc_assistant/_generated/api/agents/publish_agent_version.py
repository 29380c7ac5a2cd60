from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent import Agent
from ...models.api_error import ApiError
from ...models.publish_agent_version_body import PublishAgentVersionBody
from ...models.publish_agent_version_error import PublishAgentVersionError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    version: str,
    *,
    body: PublishAgentVersionBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents/{id}/versions/{version}/publish".format(id=quote(str(id), safe=""),version=quote(str(version), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Agent | ApiError | PublishAgentVersionError:
    if response.status_code == 200:
        response_200 = Agent.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = PublishAgentVersionError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PublishAgentVersionError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PublishAgentVersionError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = PublishAgentVersionError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = PublishAgentVersionError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = PublishAgentVersionError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = PublishAgentVersionError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = PublishAgentVersionError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = PublishAgentVersionError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = PublishAgentVersionError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Agent | ApiError | PublishAgentVersionError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,
    body: PublishAgentVersionBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[Agent | ApiError | PublishAgentVersionError]:
    """ Publish an agent version

     New calls and conversations use it from now on (unless a `traffic_split` says otherwise); calls in
    flight keep their version. Publishing an earlier version rolls back. Needs the `agents:write` scope.

    Args:
        id (str):
        version (str):
        idempotency_key (str | Unset):
        body (PublishAgentVersionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ApiError | PublishAgentVersionError]
     """


    kwargs = _get_kwargs(
        id=id,
version=version,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,
    body: PublishAgentVersionBody,
    idempotency_key: str | Unset = UNSET,

) -> Agent | ApiError | PublishAgentVersionError | None:
    """ Publish an agent version

     New calls and conversations use it from now on (unless a `traffic_split` says otherwise); calls in
    flight keep their version. Publishing an earlier version rolls back. Needs the `agents:write` scope.

    Args:
        id (str):
        version (str):
        idempotency_key (str | Unset):
        body (PublishAgentVersionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ApiError | PublishAgentVersionError
     """


    return sync_detailed(
        id=id,
version=version,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,
    body: PublishAgentVersionBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[Agent | ApiError | PublishAgentVersionError]:
    """ Publish an agent version

     New calls and conversations use it from now on (unless a `traffic_split` says otherwise); calls in
    flight keep their version. Publishing an earlier version rolls back. Needs the `agents:write` scope.

    Args:
        id (str):
        version (str):
        idempotency_key (str | Unset):
        body (PublishAgentVersionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ApiError | PublishAgentVersionError]
     """


    kwargs = _get_kwargs(
        id=id,
version=version,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    version: str,
    *,
    client: AuthenticatedClient,
    body: PublishAgentVersionBody,
    idempotency_key: str | Unset = UNSET,

) -> Agent | ApiError | PublishAgentVersionError | None:
    """ Publish an agent version

     New calls and conversations use it from now on (unless a `traffic_split` says otherwise); calls in
    flight keep their version. Publishing an earlier version rolls back. Needs the `agents:write` scope.

    Args:
        id (str):
        version (str):
        idempotency_key (str | Unset):
        body (PublishAgentVersionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ApiError | PublishAgentVersionError
     """


    return (await asyncio_detailed(
        id=id,
version=version,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
