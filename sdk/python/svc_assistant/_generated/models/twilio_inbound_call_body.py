from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioInboundCallBody")



@_attrs_define
class TwilioInboundCallBody:
    """ 
        Attributes:
            call_sid (str | Unset): The call's SID at Twilio (CA…).
            from_ (str | Unset): The caller (E.164).
            to (str | Unset): The number called (E.164; from a SIP trunk, a SIP URI whose user part is that number).
     """

    call_sid: str | Unset = UNSET
    from_: str | Unset = UNSET
    to: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        call_sid = self.call_sid

        from_ = self.from_

        to = self.to


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if from_ is not UNSET:
            field_dict["From"] = from_
        if to is not UNSET:
            field_dict["To"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        call_sid = d.pop("CallSid", UNSET)

        from_ = d.pop("From", UNSET)

        to = d.pop("To", UNSET)

        twilio_inbound_call_body = cls(
            call_sid=call_sid,
            from_=from_,
            to=to,
        )


        twilio_inbound_call_body.additional_properties = d
        return twilio_inbound_call_body

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
