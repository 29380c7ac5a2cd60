from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioTransferLegStatusBody")



@_attrs_define
class TwilioTransferLegStatusBody:
    """ 
        Attributes:
            call_sid (str | Unset): The leg's SID at Twilio (CA…).
            call_status (str | Unset): initiated, ringing, in-progress, completed, busy, no-answer, failed or canceled.
     """

    call_sid: str | Unset = UNSET
    call_status: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        call_sid = self.call_sid

        call_status = self.call_status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if call_status is not UNSET:
            field_dict["CallStatus"] = call_status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        call_sid = d.pop("CallSid", UNSET)

        call_status = d.pop("CallStatus", UNSET)

        twilio_transfer_leg_status_body = cls(
            call_sid=call_sid,
            call_status=call_status,
        )


        twilio_transfer_leg_status_body.additional_properties = d
        return twilio_transfer_leg_status_body

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
