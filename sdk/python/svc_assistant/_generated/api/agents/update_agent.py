from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.agent import Agent
from ...models.api_error import ApiError
from ...models.update_agent_body import UpdateAgentBody
from ...models.update_agent_error import UpdateAgentError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: UpdateAgentBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/agents/{id}".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Agent | ApiError | UpdateAgentError:
    if response.status_code == 200:
        response_200 = Agent.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = UpdateAgentError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = UpdateAgentError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = UpdateAgentError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = UpdateAgentError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = UpdateAgentError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = UpdateAgentError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = UpdateAgentError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = UpdateAgentError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = UpdateAgentError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = UpdateAgentError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Agent | ApiError | UpdateAgentError]:
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
    body: UpdateAgentBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[Agent | ApiError | UpdateAgentError]:
    """ Update an agent

     Only the fields given change; `first_message`, `model`, `transfer_to`, `calling_window`,
    `voicemail`, `recording`, `analysis`, `voice`, `language`, `transcription`, `interruptible`, `dtmf`
    and `turn_taking` take null to clear (`turn_taking` is replaced whole). A configuration change makes
    the next version (`GET /v1/agents/{id}/versions`), published at once unless `"publish": false` makes
    it a draft; `traffic_split` shares new calls between versions per contact. Needs the `agents:write`
    scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateAgentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ApiError | UpdateAgentError]
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
    body: UpdateAgentBody,
    idempotency_key: str | Unset = UNSET,

) -> Agent | ApiError | UpdateAgentError | None:
    """ Update an agent

     Only the fields given change; `first_message`, `model`, `transfer_to`, `calling_window`,
    `voicemail`, `recording`, `analysis`, `voice`, `language`, `transcription`, `interruptible`, `dtmf`
    and `turn_taking` take null to clear (`turn_taking` is replaced whole). A configuration change makes
    the next version (`GET /v1/agents/{id}/versions`), published at once unless `"publish": false` makes
    it a draft; `traffic_split` shares new calls between versions per contact. Needs the `agents:write`
    scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateAgentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ApiError | UpdateAgentError
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
    body: UpdateAgentBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[Agent | ApiError | UpdateAgentError]:
    """ Update an agent

     Only the fields given change; `first_message`, `model`, `transfer_to`, `calling_window`,
    `voicemail`, `recording`, `analysis`, `voice`, `language`, `transcription`, `interruptible`, `dtmf`
    and `turn_taking` take null to clear (`turn_taking` is replaced whole). A configuration change makes
    the next version (`GET /v1/agents/{id}/versions`), published at once unless `"publish": false` makes
    it a draft; `traffic_split` shares new calls between versions per contact. Needs the `agents:write`
    scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateAgentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | ApiError | UpdateAgentError]
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
    body: UpdateAgentBody,
    idempotency_key: str | Unset = UNSET,

) -> Agent | ApiError | UpdateAgentError | None:
    """ Update an agent

     Only the fields given change; `first_message`, `model`, `transfer_to`, `calling_window`,
    `voicemail`, `recording`, `analysis`, `voice`, `language`, `transcription`, `interruptible`, `dtmf`
    and `turn_taking` take null to clear (`turn_taking` is replaced whole). A configuration change makes
    the next version (`GET /v1/agents/{id}/versions`), published at once unless `"publish": false` makes
    it a draft; `traffic_split` shares new calls between versions per contact. Needs the `agents:write`
    scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (UpdateAgentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | ApiError | UpdateAgentError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
