from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_delivery_status import WebhookDeliveryStatus
from ..models.webhook_delivery_trigger import WebhookDeliveryTrigger
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.webhook_delivery_last_attempt import WebhookDeliveryLastAttempt





T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ The delivery of one event to one endpoint, across its attempts.

        Attributes:
            id (str):
            object_ (Literal['webhook_delivery']):
            livemode (bool):
            event (str):
            event_type (str):
            webhook_endpoint (str):
            trigger (WebhookDeliveryTrigger):
            status (WebhookDeliveryStatus):
            reason (None | str):
            attempts (int):
            last_attempt (None | WebhookDeliveryLastAttempt):
            created (int): Unix time in seconds.
            completed_at (int | None):
     """

    id: str
    object_: Literal['webhook_delivery']
    livemode: bool
    event: str
    event_type: str
    webhook_endpoint: str
    trigger: WebhookDeliveryTrigger
    status: WebhookDeliveryStatus
    reason: None | str
    attempts: int
    last_attempt: None | WebhookDeliveryLastAttempt
    created: int
    completed_at: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_delivery_last_attempt import WebhookDeliveryLastAttempt # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        event = self.event

        event_type = self.event_type

        webhook_endpoint = self.webhook_endpoint

        trigger = self.trigger.value

        status = self.status.value

        reason: None | str
        reason = self.reason

        attempts = self.attempts

        last_attempt: dict[str, Any] | None
        if isinstance(self.last_attempt, WebhookDeliveryLastAttempt):
            last_attempt = self.last_attempt.to_dict()
        else:
            last_attempt = self.last_attempt

        created = self.created

        completed_at: int | None
        completed_at = self.completed_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "event": event,
            "event_type": event_type,
            "webhook_endpoint": webhook_endpoint,
            "trigger": trigger,
            "status": status,
            "reason": reason,
            "attempts": attempts,
            "last_attempt": last_attempt,
            "created": created,
            "completed_at": completed_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery_last_attempt import WebhookDeliveryLastAttempt # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['webhook_delivery'] , d.pop("object"))
        if object_ != 'webhook_delivery':
            raise ValueError(f"object must match const 'webhook_delivery', got '{object_}'")

        livemode = d.pop("livemode")

        event = d.pop("event")

        event_type = d.pop("event_type")

        webhook_endpoint = d.pop("webhook_endpoint")

        trigger = WebhookDeliveryTrigger(d.pop("trigger"))




        status = WebhookDeliveryStatus(d.pop("status"))




        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        attempts = d.pop("attempts")

        def _parse_last_attempt(data: object) -> None | WebhookDeliveryLastAttempt:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_attempt_type_0 = WebhookDeliveryLastAttempt.from_dict(data)



                return last_attempt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookDeliveryLastAttempt, data)

        last_attempt = _parse_last_attempt(d.pop("last_attempt"))


        created = d.pop("created")

        def _parse_completed_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        webhook_delivery = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            event=event,
            event_type=event_type,
            webhook_endpoint=webhook_endpoint,
            trigger=trigger,
            status=status,
            reason=reason,
            attempts=attempts,
            last_attempt=last_attempt,
            created=created,
            completed_at=completed_at,
        )


        webhook_delivery.additional_properties = d
        return webhook_delivery

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
