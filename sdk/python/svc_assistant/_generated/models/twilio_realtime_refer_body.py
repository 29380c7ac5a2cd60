from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioRealtimeReferBody")



@_attrs_define
class TwilioRealtimeReferBody:
    """ 
        Attributes:
            call_sid (str | Unset): The call's SID at Twilio (CA…).
            refer_transfer_target (str | Unset): The `Refer-To` of the REFER, e.g. `<tel:+14155550111>` or
                `<sip:desk@example.com>`.
     """

    call_sid: str | Unset = UNSET
    refer_transfer_target: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        call_sid = self.call_sid

        refer_transfer_target = self.refer_transfer_target


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if refer_transfer_target is not UNSET:
            field_dict["ReferTransferTarget"] = refer_transfer_target

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        call_sid = d.pop("CallSid", UNSET)

        refer_transfer_target = d.pop("ReferTransferTarget", UNSET)

        twilio_realtime_refer_body = cls(
            call_sid=call_sid,
            refer_transfer_target=refer_transfer_target,
        )


        twilio_realtime_refer_body.additional_properties = d
        return twilio_realtime_refer_body

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
