from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.event_type import EventType
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.event_data import EventData
  from ..models.webhook_delivery import WebhookDelivery





T = TypeVar("T", bound="Event")



@_attrs_define
class Event:
    """ Something that happened (spec section 5): its type, the object as it was, and its deliveries.

        Attributes:
            id (str):
            object_ (Literal['event']):
            type_ (EventType):
            created (int): Unix time in seconds.
            livemode (bool):
            api_version (str):
            data (EventData):
            pending_webhooks (int):
            webhook_deliveries (list[WebhookDelivery]):
     """

    id: str
    object_: Literal['event']
    type_: EventType
    created: int
    livemode: bool
    api_version: str
    data: EventData
    pending_webhooks: int
    webhook_deliveries: list[WebhookDelivery]





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_data import EventData # noqa: PLC0415
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        id = self.id

        object_ = self.object_

        type_ = self.type_.value

        created = self.created

        livemode = self.livemode

        api_version = self.api_version

        data = self.data.to_dict()

        pending_webhooks = self.pending_webhooks

        webhook_deliveries = []
        for webhook_deliveries_item_data in self.webhook_deliveries:
            webhook_deliveries_item = webhook_deliveries_item_data.to_dict()
            webhook_deliveries.append(webhook_deliveries_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "object": object_,
            "type": type_,
            "created": created,
            "livemode": livemode,
            "api_version": api_version,
            "data": data,
            "pending_webhooks": pending_webhooks,
            "webhook_deliveries": webhook_deliveries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_data import EventData # noqa: PLC0415
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['event'] , d.pop("object"))
        if object_ != 'event':
            raise ValueError(f"object must match const 'event', got '{object_}'")

        type_ = EventType(d.pop("type"))




        created = d.pop("created")

        livemode = d.pop("livemode")

        api_version = d.pop("api_version")

        data = EventData.from_dict(d.pop("data"))




        pending_webhooks = d.pop("pending_webhooks")

        webhook_deliveries = []
        _webhook_deliveries = d.pop("webhook_deliveries")
        for webhook_deliveries_item_data in (_webhook_deliveries):
            webhook_deliveries_item = WebhookDelivery.from_dict(webhook_deliveries_item_data)



            webhook_deliveries.append(webhook_deliveries_item)


        event = cls(
            id=id,
            object_=object_,
            type_=type_,
            created=created,
            livemode=livemode,
            api_version=api_version,
            data=data,
            pending_webhooks=pending_webhooks,
            webhook_deliveries=webhook_deliveries,
        )

        return event

