from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.conversation_list import ConversationList
from ...models.list_conversations_channel import ListConversationsChannel
from ...models.list_conversations_error import ListConversationsError
from ...models.list_conversations_status import ListConversationsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    channel: ListConversationsChannel | Unset = UNSET,
    status: ListConversationsStatus | Unset = UNSET,
    customer_number: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    json_channel: str | Unset = UNSET
    if not isinstance(channel, Unset):
        json_channel = channel.value

    params["channel"] = json_channel

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["customer_number"] = customer_number


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/conversations",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | ConversationList | ListConversationsError:
    if response.status_code == 200:
        response_200 = ConversationList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ListConversationsError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ListConversationsError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ListConversationsError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = ListConversationsError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ListConversationsError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | ConversationList | ListConversationsError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    channel: ListConversationsChannel | Unset = UNSET,
    status: ListConversationsStatus | Unset = UNSET,
    customer_number: str | Unset = UNSET,

) -> Response[ApiError | ConversationList | ListConversationsError]:
    """ List conversations

     List conversations. Needs the `messages:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        channel (ListConversationsChannel | Unset):
        status (ListConversationsStatus | Unset):
        customer_number (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConversationList | ListConversationsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
channel=channel,
status=status,
customer_number=customer_number,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    channel: ListConversationsChannel | Unset = UNSET,
    status: ListConversationsStatus | Unset = UNSET,
    customer_number: str | Unset = UNSET,

) -> ApiError | ConversationList | ListConversationsError | None:
    """ List conversations

     List conversations. Needs the `messages:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        channel (ListConversationsChannel | Unset):
        status (ListConversationsStatus | Unset):
        customer_number (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConversationList | ListConversationsError
     """


    return sync_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
channel=channel,
status=status,
customer_number=customer_number,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    channel: ListConversationsChannel | Unset = UNSET,
    status: ListConversationsStatus | Unset = UNSET,
    customer_number: str | Unset = UNSET,

) -> Response[ApiError | ConversationList | ListConversationsError]:
    """ List conversations

     List conversations. Needs the `messages:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        channel (ListConversationsChannel | Unset):
        status (ListConversationsStatus | Unset):
        customer_number (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | ConversationList | ListConversationsError]
     """


    kwargs = _get_kwargs(
        limit=limit,
starting_after=starting_after,
ending_before=ending_before,
channel=channel,
status=status,
customer_number=customer_number,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    channel: ListConversationsChannel | Unset = UNSET,
    status: ListConversationsStatus | Unset = UNSET,
    customer_number: str | Unset = UNSET,

) -> ApiError | ConversationList | ListConversationsError | None:
    """ List conversations

     List conversations. Needs the `messages:read` scope.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        channel (ListConversationsChannel | Unset):
        status (ListConversationsStatus | Unset):
        customer_number (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | ConversationList | ListConversationsError
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
starting_after=starting_after,
ending_before=ending_before,
channel=channel,
status=status,
customer_number=customer_number,

    )).parsed
