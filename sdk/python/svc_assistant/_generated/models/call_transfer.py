from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_transfer_mode import CallTransferMode
from ..models.call_transfer_reason_type_0 import CallTransferReasonType0
from ..models.call_transfer_status import CallTransferStatus
from typing import cast






T = TypeVar("T", bound="CallTransfer")



@_attrs_define
class CallTransfer:
    """ 
        Attributes:
            mode (CallTransferMode):
            to (str):
            status (CallTransferStatus):
            reason (CallTransferReasonType0 | None):
            summary (None | str):
            attempt (int):
     """

    mode: CallTransferMode
    to: str
    status: CallTransferStatus
    reason: CallTransferReasonType0 | None
    summary: None | str
    attempt: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        to = self.to

        status = self.status.value

        reason: None | str
        if isinstance(self.reason, CallTransferReasonType0):
            reason = self.reason.value
        else:
            reason = self.reason

        summary: None | str
        summary = self.summary

        attempt = self.attempt


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        mode = CallTransferMode(d.pop("mode"))




        to = d.pop("to")

        status = CallTransferStatus(d.pop("status"))




        def _parse_reason(data: object) -> CallTransferReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = CallTransferReasonType0(data)



                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallTransferReasonType0 | None, data)

        reason = _parse_reason(d.pop("reason"))


        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))


        attempt = d.pop("attempt")

        call_transfer = cls(
            mode=mode,
            to=to,
            status=status,
            reason=reason,
            summary=summary,
            attempt=attempt,
        )


        call_transfer.additional_properties = d
        return call_transfer

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
