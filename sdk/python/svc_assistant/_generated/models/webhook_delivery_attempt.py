from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="WebhookDeliveryAttempt")



@_attrs_define
class WebhookDeliveryAttempt:
    """ One HTTP attempt of a delivery: when, the status code, the latency, the error.

        Attributes:
            id (str):
            object_ (Literal['webhook_delivery_attempt']):
            livemode (bool):
            created (int): Unix time in seconds.
            webhook_endpoint (str):
            delivery (str):
            event (str):
            event_type (str):
            trigger (str):
            attempt (int):
            url (str):
            succeeded (bool):
            status_code (int | None):
            latency_ms (float | None):
            error (None | str):
            error_code (None | str):
            response_body (None | str):
     """

    id: str
    object_: Literal['webhook_delivery_attempt']
    livemode: bool
    created: int
    webhook_endpoint: str
    delivery: str
    event: str
    event_type: str
    trigger: str
    attempt: int
    url: str
    succeeded: bool
    status_code: int | None
    latency_ms: float | None
    error: None | str
    error_code: None | str
    response_body: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        created = self.created

        webhook_endpoint = self.webhook_endpoint

        delivery = self.delivery

        event = self.event

        event_type = self.event_type

        trigger = self.trigger

        attempt = self.attempt

        url = self.url

        succeeded = self.succeeded

        status_code: int | None
        status_code = self.status_code

        latency_ms: float | None
        latency_ms = self.latency_ms

        error: None | str
        error = self.error

        error_code: None | str
        error_code = self.error_code

        response_body: None | str
        response_body = self.response_body


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "created": created,
            "webhook_endpoint": webhook_endpoint,
            "delivery": delivery,
            "event": event,
            "event_type": event_type,
            "trigger": trigger,
            "attempt": attempt,
            "url": url,
            "succeeded": succeeded,
            "status_code": status_code,
            "latency_ms": latency_ms,
            "error": error,
            "error_code": error_code,
            "response_body": response_body,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['webhook_delivery_attempt'] , d.pop("object"))
        if object_ != 'webhook_delivery_attempt':
            raise ValueError(f"object must match const 'webhook_delivery_attempt', got '{object_}'")

        livemode = d.pop("livemode")

        created = d.pop("created")

        webhook_endpoint = d.pop("webhook_endpoint")

        delivery = d.pop("delivery")

        event = d.pop("event")

        event_type = d.pop("event_type")

        trigger = d.pop("trigger")

        attempt = d.pop("attempt")

        url = d.pop("url")

        succeeded = d.pop("succeeded")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))


        def _parse_latency_ms(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        latency_ms = _parse_latency_ms(d.pop("latency_ms"))


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))


        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))


        webhook_delivery_attempt = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            created=created,
            webhook_endpoint=webhook_endpoint,
            delivery=delivery,
            event=event,
            event_type=event_type,
            trigger=trigger,
            attempt=attempt,
            url=url,
            succeeded=succeeded,
            status_code=status_code,
            latency_ms=latency_ms,
            error=error,
            error_code=error_code,
            response_body=response_body,
        )


        webhook_delivery_attempt.additional_properties = d
        return webhook_delivery_attempt

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
