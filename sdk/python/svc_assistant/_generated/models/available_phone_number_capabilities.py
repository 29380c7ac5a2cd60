from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AvailablePhoneNumberCapabilities")



@_attrs_define
class AvailablePhoneNumberCapabilities:
    """ 
        Attributes:
            voice (bool):
            sms (bool):
            mms (bool):
     """

    voice: bool
    sms: bool
    mms: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        voice = self.voice

        sms = self.sms

        mms = self.mms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "voice": voice,
            "sms": sms,
            "mms": mms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        voice = d.pop("voice")

        sms = d.pop("sms")

        mms = d.pop("mms")

        available_phone_number_capabilities = cls(
            voice=voice,
            sms=sms,
            mms=mms,
        )


        available_phone_number_capabilities.additional_properties = d
        return available_phone_number_capabilities

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
