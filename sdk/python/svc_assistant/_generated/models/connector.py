from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="Connector")



@_attrs_define
class Connector:
    """ A connector and its latest version.

        Attributes:
            id (str):
            object_ (Literal['connector']):
            livemode (bool):
            name (None | str):
            description (None | str):
            latest_version (None | str):
            versions (int):
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['connector']
    livemode: bool
    name: None | str
    description: None | str
    latest_version: None | str
    versions: int
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name: None | str
        name = self.name

        description: None | str
        description = self.description

        latest_version: None | str
        latest_version = self.latest_version

        versions = self.versions

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "description": description,
            "latest_version": latest_version,
            "versions": versions,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['connector'] , d.pop("object"))
        if object_ != 'connector':
            raise ValueError(f"object must match const 'connector', got '{object_}'")

        livemode = d.pop("livemode")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        def _parse_latest_version(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        latest_version = _parse_latest_version(d.pop("latest_version"))


        versions = d.pop("versions")

        created = d.pop("created")

        connector = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            description=description,
            latest_version=latest_version,
            versions=versions,
            created=created,
        )


        connector.additional_properties = d
        return connector

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
