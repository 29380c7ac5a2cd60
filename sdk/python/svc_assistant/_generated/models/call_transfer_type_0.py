from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_transfer_type_0_mode import CallTransferType0Mode
from ..models.call_transfer_type_0_reason_type_0 import CallTransferType0ReasonType0
from ..models.call_transfer_type_0_status import CallTransferType0Status
from typing import cast






T = TypeVar("T", bound="CallTransferType0")



@_attrs_define
class CallTransferType0:
    """ 
        Attributes:
            mode (CallTransferType0Mode):
            to (str):
            status (CallTransferType0Status):
            reason (CallTransferType0ReasonType0 | None):
            summary (None | str):
            attempt (int):
     """

    mode: CallTransferType0Mode
    to: str
    status: CallTransferType0Status
    reason: CallTransferType0ReasonType0 | None
    summary: None | str
    attempt: int





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        to = self.to

        status = self.status.value

        reason: None | str
        if isinstance(self.reason, CallTransferType0ReasonType0):
            reason = self.reason.value
        else:
            reason = self.reason

        summary: None | str
        summary = self.summary

        attempt = self.attempt


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "mode": mode,
            "to": to,
            "status": status,
            "reason": reason,
            "summary": summary,
            "attempt": attempt,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = CallTransferType0Mode(d.pop("mode"))




        to = d.pop("to")

        status = CallTransferType0Status(d.pop("status"))




        def _parse_reason(data: object) -> CallTransferType0ReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = CallTransferType0ReasonType0(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallTransferType0ReasonType0 | None, data)

        reason = _parse_reason(d.pop("reason"))


        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))


        attempt = d.pop("attempt")

        call_transfer_type_0 = cls(
            mode=mode,
            to=to,
            status=status,
            reason=reason,
            summary=summary,
            attempt=attempt,
        )

        return call_transfer_type_0

