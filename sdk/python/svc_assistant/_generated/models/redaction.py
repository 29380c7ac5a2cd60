from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="Redaction")



@_attrs_define
class Redaction:
    """ What was replaced before the text was stored (the organization's `redaction.enabled`): counts by kind of the
    `[card]`, `[ssn]`, `[email]` and `[phone]` placeholders. Absent when nothing was.

        Attributes:
            card (int | Unset): Card numbers (Luhn-checked, known brand) replaced.
            ssn (int | Unset): US Social Security numbers replaced.
            email (int | Unset): Email addresses replaced.
            phone (int | Unset): Phone numbers other than the parties' own replaced.
     """

    card: int | Unset = UNSET
    ssn: int | Unset = UNSET
    email: int | Unset = UNSET
    phone: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        card = self.card

        ssn = self.ssn

        email = self.email

        phone = self.phone


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if card is not UNSET:
            field_dict["card"] = card
        if ssn is not UNSET:
            field_dict["ssn"] = ssn
        if email is not UNSET:
            field_dict["email"] = email
        if phone is not UNSET:
            field_dict["phone"] = phone

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        card = d.pop("card", UNSET)

        ssn = d.pop("ssn", UNSET)

        email = d.pop("email", UNSET)

        phone = d.pop("phone", UNSET)

        redaction = cls(
            card=card,
            ssn=ssn,
            email=email,
            phone=phone,
        )


        redaction.additional_properties = d
        return redaction

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
