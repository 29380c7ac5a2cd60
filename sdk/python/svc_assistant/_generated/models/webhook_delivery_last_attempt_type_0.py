from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="WebhookDeliveryLastAttemptType0")



@_attrs_define
class WebhookDeliveryLastAttemptType0:
    """ 
        Attributes:
            at (int | None):
            status_code (int | None):
            latency_ms (float | None):
            error (None | str):
     """

    at: int | None
    status_code: int | None
    latency_ms: float | None
    error: None | str





    def to_dict(self) -> dict[str, Any]:
        at: int | None
        at = self.at

        status_code: int | None
        status_code = self.status_code

        latency_ms: float | None
        latency_ms = self.latency_ms

        error: None | str
        error = self.error


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "at": at,
            "status_code": status_code,
            "latency_ms": latency_ms,
            "error": error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        at = _parse_at(d.pop("at"))


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


        webhook_delivery_last_attempt_type_0 = cls(
            at=at,
            status_code=status_code,
            latency_ms=latency_ms,
            error=error,
        )

        return webhook_delivery_last_attempt_type_0

