from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="DoNotCallDeleted")



@_attrs_define
class DoNotCallDeleted:
    """ A number taken off the do-not-call list.

        Attributes:
            id (str):
            object_ (Literal['do_not_call_entry']):
            phone (str):
            deleted (bool):
     """

    id: str
    object_: Literal['do_not_call_entry']
    phone: str
    deleted: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        phone = self.phone

        deleted = self.deleted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "phone": phone,
            "deleted": deleted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['do_not_call_entry'] , d.pop("object"))
        if object_ != 'do_not_call_entry':
            raise ValueError(f"object must match const 'do_not_call_entry', got '{object_}'")

        phone = d.pop("phone")

        deleted = d.pop("deleted")

        do_not_call_deleted = cls(
            id=id,
            object_=object_,
            phone=phone,
            deleted=deleted,
        )


        do_not_call_deleted.additional_properties = d
        return do_not_call_deleted

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
