from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageTotalsMessagesOutbound")



@_attrs_define
class UsageTotalsMessagesOutbound:
    """ 
        Attributes:
            sms (int):
            whatsapp (int):
            whatsapp_template (int):
            web (int):
     """

    sms: int
    whatsapp: int
    whatsapp_template: int
    web: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        sms = self.sms

        whatsapp = self.whatsapp

        whatsapp_template = self.whatsapp_template

        web = self.web


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sms": sms,
            "whatsapp": whatsapp,
            "whatsapp_template": whatsapp_template,
            "web": web,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sms = d.pop("sms")

        whatsapp = d.pop("whatsapp")

        whatsapp_template = d.pop("whatsapp_template")

        web = d.pop("web")

        usage_totals_messages_outbound = cls(
            sms=sms,
            whatsapp=whatsapp,
            whatsapp_template=whatsapp_template,
            web=web,
        )


        usage_totals_messages_outbound.additional_properties = d
        return usage_totals_messages_outbound

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
