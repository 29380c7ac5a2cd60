from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.conversation import Conversation
from ...models.handoff_conversation_body import HandoffConversationBody
from ...models.handoff_conversation_error import HandoffConversationError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: HandoffConversationBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/conversations/{id}/handoff".format(id=quote(str(id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | Conversation | HandoffConversationError:
    if response.status_code == 200:
        response_200 = Conversation.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = HandoffConversationError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = HandoffConversationError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = HandoffConversationError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = HandoffConversationError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = HandoffConversationError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = HandoffConversationError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = HandoffConversationError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = HandoffConversationError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = HandoffConversationError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = HandoffConversationError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | Conversation | HandoffConversationError]:
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
    body: HandoffConversationBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Conversation | HandoffConversationError]:
    """ Take a conversation over from the assistant

     A person takes the conversation over: the assistant stops answering until `resume`. Inbound messages
    are still stored and emitted; reply with `POST /v1/messages` (`author: "person"`). Needs the
    `messages:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (HandoffConversationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Conversation | HandoffConversationError]
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
    body: HandoffConversationBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Conversation | HandoffConversationError | None:
    """ Take a conversation over from the assistant

     A person takes the conversation over: the assistant stops answering until `resume`. Inbound messages
    are still stored and emitted; reply with `POST /v1/messages` (`author: "person"`). Needs the
    `messages:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (HandoffConversationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Conversation | HandoffConversationError
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
    body: HandoffConversationBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | Conversation | HandoffConversationError]:
    """ Take a conversation over from the assistant

     A person takes the conversation over: the assistant stops answering until `resume`. Inbound messages
    are still stored and emitted; reply with `POST /v1/messages` (`author: "person"`). Needs the
    `messages:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (HandoffConversationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | Conversation | HandoffConversationError]
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
    body: HandoffConversationBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | Conversation | HandoffConversationError | None:
    """ Take a conversation over from the assistant

     A person takes the conversation over: the assistant stops answering until `resume`. Inbound messages
    are still stored and emitted; reply with `POST /v1/messages` (`author: "person"`). Needs the
    `messages:write` scope.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (HandoffConversationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | Conversation | HandoffConversationError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
