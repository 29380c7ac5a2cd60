from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_inbound_webhook_type_0_status import CallInboundWebhookType0Status
from ..types import UNSET, Unset






T = TypeVar("T", bound="CallInboundWebhookType0")



@_attrs_define
class CallInboundWebhookType0:
    """ 
        Attributes:
            status (CallInboundWebhookType0Status):
            error (str | Unset):
     """

    status: CallInboundWebhookType0Status
    error: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        error = self.error


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "status": status,
        })
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = CallInboundWebhookType0Status(d.pop("status"))




        error = d.pop("error", UNSET)

        call_inbound_webhook_type_0 = cls(
            status=status,
            error=error,
        )

        return call_inbound_webhook_type_0

