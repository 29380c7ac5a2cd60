from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreatePublisherKeyBody")



@_attrs_define
class CreatePublisherKeyBody:
    """ 
        Attributes:
            public_key (str):
            name (str | Unset):
            expires_at (int | Unset):
     """

    public_key: str
    name: str | Unset = UNSET
    expires_at: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        public_key = self.public_key

        name = self.name

        expires_at = self.expires_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "public_key": public_key,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        public_key = d.pop("public_key")

        name = d.pop("name", UNSET)

        expires_at = d.pop("expires_at", UNSET)

        create_publisher_key_body = cls(
            public_key=public_key,
            name=name,
            expires_at=expires_at,
        )

        return create_publisher_key_body

