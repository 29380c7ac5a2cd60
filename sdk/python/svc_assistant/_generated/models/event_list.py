from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.bulk_call_event import BulkCallEvent
  from ..models.bulk_call_result_event import BulkCallResultEvent
  from ..models.call_event import CallEvent
  from ..models.connector_version_event import ConnectorVersionEvent
  from ..models.contact_opted_out_event import ContactOptedOutEvent
  from ..models.conversation_analyzed_event import ConversationAnalyzedEvent
  from ..models.conversation_event import ConversationEvent
  from ..models.erasure_event import ErasureEvent
  from ..models.message_event import MessageEvent
  from ..models.recording_event import RecordingEvent
  from ..models.test_suite_run_event import TestSuiteRunEvent
  from ..models.webhook_delivery_event import WebhookDeliveryEvent





T = TypeVar("T", bound="EventList")



@_attrs_define
class EventList:
    """ A page of `Event` objects.

        Attributes:
            object_ (Literal['list']):
            data (list[BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent |
                ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent
                | WebhookDeliveryEvent]):
            has_more (bool): True when more objects follow this page.
            url (str): The path of this list, e.g. `/v1/calls`.
     """

    object_: Literal['list']
    data: list[BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent]
    has_more: bool
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_call_event import BulkCallEvent # noqa: PLC0415
        from ..models.bulk_call_result_event import BulkCallResultEvent # noqa: PLC0415
        from ..models.call_event import CallEvent # noqa: PLC0415
        from ..models.connector_version_event import ConnectorVersionEvent # noqa: PLC0415
        from ..models.contact_opted_out_event import ContactOptedOutEvent # noqa: PLC0415
        from ..models.conversation_analyzed_event import ConversationAnalyzedEvent # noqa: PLC0415
        from ..models.conversation_event import ConversationEvent # noqa: PLC0415
        from ..models.erasure_event import ErasureEvent # noqa: PLC0415
        from ..models.message_event import MessageEvent # noqa: PLC0415
        from ..models.recording_event import RecordingEvent # noqa: PLC0415
        from ..models.test_suite_run_event import TestSuiteRunEvent # noqa: PLC0415
        from ..models.webhook_delivery_event import WebhookDeliveryEvent # noqa: PLC0415
        object_ = self.object_

        data = []
        for data_item_data in self.data:
            data_item: dict[str, Any]
            if isinstance(data_item_data, CallEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, ConversationEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, ConversationAnalyzedEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, MessageEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, WebhookDeliveryEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, ConnectorVersionEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BulkCallResultEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, BulkCallEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, RecordingEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, TestSuiteRunEvent):
                data_item = data_item_data.to_dict()
            elif isinstance(data_item_data, ErasureEvent):
                data_item = data_item_data.to_dict()
            else:
                data_item = data_item_data.to_dict()

            data.append(data_item)



        has_more = self.has_more

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "data": data,
            "has_more": has_more,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_call_event import BulkCallEvent # noqa: PLC0415
        from ..models.bulk_call_result_event import BulkCallResultEvent # noqa: PLC0415
        from ..models.call_event import CallEvent # noqa: PLC0415
        from ..models.connector_version_event import ConnectorVersionEvent # noqa: PLC0415
        from ..models.contact_opted_out_event import ContactOptedOutEvent # noqa: PLC0415
        from ..models.conversation_analyzed_event import ConversationAnalyzedEvent # noqa: PLC0415
        from ..models.conversation_event import ConversationEvent # noqa: PLC0415
        from ..models.erasure_event import ErasureEvent # noqa: PLC0415
        from ..models.message_event import MessageEvent # noqa: PLC0415
        from ..models.recording_event import RecordingEvent # noqa: PLC0415
        from ..models.test_suite_run_event import TestSuiteRunEvent # noqa: PLC0415
        from ..models.webhook_delivery_event import WebhookDeliveryEvent # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['list'] , d.pop("object"))
        if object_ != 'list':
            raise ValueError(f"object must match const 'list', got '{object_}'")

        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            def _parse_data_item(data: object) -> BulkCallEvent | BulkCallResultEvent | CallEvent | ConnectorVersionEvent | ContactOptedOutEvent | ConversationAnalyzedEvent | ConversationEvent | ErasureEvent | MessageEvent | RecordingEvent | TestSuiteRunEvent | WebhookDeliveryEvent:
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

            data_item = _parse_data_item(data_item_data)

            data.append(data_item)


        has_more = d.pop("has_more")

        url = d.pop("url")

        event_list = cls(
            object_=object_,
            data=data,
            has_more=has_more,
            url=url,
        )


        event_list.additional_properties = d
        return event_list

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
