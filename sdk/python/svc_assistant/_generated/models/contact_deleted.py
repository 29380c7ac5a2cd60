from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="ContactDeleted")



@_attrs_define
class ContactDeleted:
    """ A deleted contact: its id, `deleted: true`, and the erasure that reaches every other copy of the person.

        Attributes:
            id (str):
            object_ (Literal['contact']):
            deleted (bool):
            erasure (str): The erasure (`ers_…`): `GET /v1/erasures/{id}`.
     """

    id: str
    object_: Literal['contact']
    deleted: bool
    erasure: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        deleted = self.deleted

        erasure = self.erasure


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "deleted": deleted,
            "erasure": erasure,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['contact'] , d.pop("object"))
        if object_ != 'contact':
            raise ValueError(f"object must match const 'contact', got '{object_}'")

        deleted = d.pop("deleted")

        erasure = d.pop("erasure")

        contact_deleted = cls(
            id=id,
            object_=object_,
            deleted=deleted,
            erasure=erasure,
        )


        contact_deleted.additional_properties = d
        return contact_deleted

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
