from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateContactBody")



@_attrs_define
class CreateContactBody:
    """ 
        Attributes:
            phone (str | Unset): A valid phone number in E.164 format.
            external_id (str | Unset):
            name (None | str | Unset):
            do_not_call (bool | Unset):
     """

    phone: str | Unset = UNSET
    external_id: str | Unset = UNSET
    name: None | str | Unset = UNSET
    do_not_call: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        phone = self.phone

        external_id = self.external_id

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        do_not_call = self.do_not_call


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if phone is not UNSET:
            field_dict["phone"] = phone
        if external_id is not UNSET:
            field_dict["external_id"] = external_id
        if name is not UNSET:
            field_dict["name"] = name
        if do_not_call is not UNSET:
            field_dict["do_not_call"] = do_not_call

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        phone = d.pop("phone", UNSET)

        external_id = d.pop("external_id", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        do_not_call = d.pop("do_not_call", UNSET)

        create_contact_body = cls(
            phone=phone,
            external_id=external_id,
            name=name,
            do_not_call=do_not_call,
        )

        return create_contact_body

