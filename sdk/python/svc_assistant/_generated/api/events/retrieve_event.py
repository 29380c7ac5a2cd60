from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.bulk_call_event import BulkCallEvent
from ...models.bulk_call_result_event import BulkCallResultEvent
from ...models.call_event import CallEvent
from ...models.connector_version_event import ConnectorVersionEvent
from ...models.contact_opted_out_event import ContactOptedOutEvent
from ...models.conversation_analyzed_event import ConversationAnalyzedEvent
from ...models.conversation_event import ConversationEvent
from ...models.erasure_event import ErasureEvent
from ...models.message_event import MessageEvent
from ...models.recording_event import RecordingEvent
from ...models.retrieve_event_error import RetrieveEventError
from ...models.test_suite_run_event import TestSuiteRunEvent
from ...models.webhook_delivery_event import WebhookDeliveryEvent
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events/{id}".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_0 = CallEvent.from_dict(data)



                return componentsschemas_event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_1 = ConversationEvent.from_dict(data)



                return componentsschemas_event_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_2 = ConversationAnalyzedEvent.from_dict(data)



                return componentsschemas_event_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_3 = MessageEvent.from_dict(data)



                return componentsschemas_event_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_4 = WebhookDeliveryEvent.from_dict(data)



                return componentsschemas_event_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_5 = ConnectorVersionEvent.from_dict(data)



                return componentsschemas_event_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_6 = BulkCallResultEvent.from_dict(data)



                return componentsschemas_event_type_6
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_7 = BulkCallEvent.from_dict(data)



                return componentsschemas_event_type_7
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_8 = RecordingEvent.from_dict(data)



                return componentsschemas_event_type_8
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_9 = TestSuiteRunEvent.from_dict(data)



                return componentsschemas_event_type_9
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_10 = ErasureEvent.from_dict(data)



                return componentsschemas_event_type_10
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_event_type_11 = ContactOptedOutEvent.from_dict(data)



            return componentsschemas_event_type_11

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = RetrieveEventError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveEventError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveEventError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveEventError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveEventError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveEventError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError]:
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

) -> Response[ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError]:
    """ Retrieve an event and its deliveries

     Retrieve an event and its deliveries. Needs the `events:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError | None:
    """ Retrieve an event and its deliveries

     Retrieve an event and its deliveries. Needs the `events:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError]:
    """ Retrieve an event and its deliveries

     Retrieve an event and its deliveries. Needs the `events:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError | None:
    """ Retrieve an event and its deliveries

     Retrieve an event and its deliveries. Needs the `events:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent | RetrieveEventError
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
