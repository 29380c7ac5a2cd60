from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.contact_opted_out_event_type import ContactOptedOutEventType
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.contact_opted_out_event_data import ContactOptedOutEventData
  from ..models.webhook_delivery import WebhookDelivery





T = TypeVar("T", bound="ContactOptedOutEvent")



@_attrs_define
class ContactOptedOutEvent:
    """ An event of type `contact.opted_out`: `data.object` is the object as it was then.

        Attributes:
            id (str):
            object_ (Literal['event']):
            created (int): Unix time in seconds.
            livemode (bool):
            api_version (str): The API version the event was rendered with.
            pending_webhooks (int): Deliveries still being attempted.
            webhook_deliveries (list[WebhookDelivery]):
            type_ (ContactOptedOutEventType):
            data (ContactOptedOutEventData):
     """

    id: str
    object_: Literal['event']
    created: int
    livemode: bool
    api_version: str
    pending_webhooks: int
    webhook_deliveries: list[WebhookDelivery]
    type_: ContactOptedOutEventType
    data: ContactOptedOutEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.contact_opted_out_event_data import ContactOptedOutEventData # noqa: PLC0415
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        id = self.id

        object_ = self.object_

        created = self.created

        livemode = self.livemode

        api_version = self.api_version

        pending_webhooks = self.pending_webhooks

        webhook_deliveries = []
        for webhook_deliveries_item_data in self.webhook_deliveries:
            webhook_deliveries_item = webhook_deliveries_item_data.to_dict()
            webhook_deliveries.append(webhook_deliveries_item)



        type_ = self.type_.value

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "created": created,
            "livemode": livemode,
            "api_version": api_version,
            "pending_webhooks": pending_webhooks,
            "webhook_deliveries": webhook_deliveries,
            "type": type_,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.contact_opted_out_event_data import ContactOptedOutEventData # noqa: PLC0415
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['event'] , d.pop("object"))
        if object_ != 'event':
            raise ValueError(f"object must match const 'event', got '{object_}'")

        created = d.pop("created")

        livemode = d.pop("livemode")

        api_version = d.pop("api_version")

        pending_webhooks = d.pop("pending_webhooks")

        webhook_deliveries = []
        _webhook_deliveries = d.pop("webhook_deliveries")
        for webhook_deliveries_item_data in (_webhook_deliveries):
            webhook_deliveries_item = WebhookDelivery.from_dict(webhook_deliveries_item_data)



            webhook_deliveries.append(webhook_deliveries_item)


        type_ = ContactOptedOutEventType(d.pop("type"))




        data = ContactOptedOutEventData.from_dict(d.pop("data"))




        contact_opted_out_event = cls(
            id=id,
            object_=object_,
            created=created,
            livemode=livemode,
            api_version=api_version,
            pending_webhooks=pending_webhooks,
            webhook_deliveries=webhook_deliveries,
            type_=type_,
            data=data,
        )


        contact_opted_out_event.additional_properties = d
        return contact_opted_out_event

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
