from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="EraseContactBody")



@_attrs_define
class EraseContactBody:
    """ 
        Attributes:
            phone (str | Unset): A valid phone number in E.164 format.
            external_id (str | Unset):
     """

    phone: str | Unset = UNSET
    external_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        phone = self.phone

        external_id = self.external_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if phone is not UNSET:
            field_dict["phone"] = phone
        if external_id is not UNSET:
            field_dict["external_id"] = external_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        phone = d.pop("phone", UNSET)

        external_id = d.pop("external_id", UNSET)

        erase_contact_body = cls(
            phone=phone,
            external_id=external_id,
        )

        return erase_contact_body

