from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateCallerIdBody")



@_attrs_define
class CreateCallerIdBody:
    """ 
        Attributes:
            phone_number (str): A valid phone number in E.164 format.
            friendly_name (str | Unset):
     """

    phone_number: str
    friendly_name: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        phone_number = self.phone_number

        friendly_name = self.friendly_name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "phone_number": phone_number,
        })
        if friendly_name is not UNSET:
            field_dict["friendly_name"] = friendly_name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        phone_number = d.pop("phone_number")

        friendly_name = d.pop("friendly_name", UNSET)

        create_caller_id_body = cls(
            phone_number=phone_number,
            friendly_name=friendly_name,
        )

        return create_caller_id_body

