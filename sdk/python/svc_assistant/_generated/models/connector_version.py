from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.connector_version_manifest import ConnectorVersionManifest





T = TypeVar("T", bound="ConnectorVersion")



@_attrs_define
class ConnectorVersion:
    """ A signed, published version of a connector bundle.

        Attributes:
            id (str):
            object_ (Literal['connector_version']):
            livemode (bool):
            connector (str):
            version (str):
            sha256 (str):
            size (int):
            key_id (str):
            manifest (ConnectorVersionManifest):
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['connector_version']
    livemode: bool
    connector: str
    version: str
    sha256: str
    size: int
    key_id: str
    manifest: ConnectorVersionManifest
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.connector_version_manifest import ConnectorVersionManifest # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        connector = self.connector

        version = self.version

        sha256 = self.sha256

        size = self.size

        key_id = self.key_id

        manifest = self.manifest.to_dict()

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "connector": connector,
            "version": version,
            "sha256": sha256,
            "size": size,
            "key_id": key_id,
            "manifest": manifest,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connector_version_manifest import ConnectorVersionManifest # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['connector_version'] , d.pop("object"))
        if object_ != 'connector_version':
            raise ValueError(f"object must match const 'connector_version', got '{object_}'")

        livemode = d.pop("livemode")

        connector = d.pop("connector")

        version = d.pop("version")

        sha256 = d.pop("sha256")

        size = d.pop("size")

        key_id = d.pop("key_id")

        manifest = ConnectorVersionManifest.from_dict(d.pop("manifest"))




        created = d.pop("created")

        connector_version = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            connector=connector,
            version=version,
            sha256=sha256,
            size=size,
            key_id=key_id,
            manifest=manifest,
            created=created,
        )


        connector_version.additional_properties = d
        return connector_version

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
