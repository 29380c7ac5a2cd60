from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_connector_installation_body_config import UpdateConnectorInstallationBodyConfig
  from ..models.update_connector_installation_body_metadata import UpdateConnectorInstallationBodyMetadata





T = TypeVar("T", bound="UpdateConnectorInstallationBody")



@_attrs_define
class UpdateConnectorInstallationBody:
    """ 
        Attributes:
            version (str | Unset): Move to this published version; the config is checked against its schema.
            config (UpdateConnectorInstallationBodyConfig | Unset): Replaces the config; a secret key left out keeps its
                stored value, one set to null is removed. Checked against the (target) version's `config_schema`.
            metadata (UpdateConnectorInstallationBodyMetadata | Unset):
     """

    version: str | Unset = UNSET
    config: UpdateConnectorInstallationBodyConfig | Unset = UNSET
    metadata: UpdateConnectorInstallationBodyMetadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_connector_installation_body_config import UpdateConnectorInstallationBodyConfig # noqa: PLC0415
        from ..models.update_connector_installation_body_metadata import UpdateConnectorInstallationBodyMetadata # noqa: PLC0415
        version = self.version

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if version is not UNSET:
            field_dict["version"] = version
        if config is not UNSET:
            field_dict["config"] = config
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_connector_installation_body_config import UpdateConnectorInstallationBodyConfig # noqa: PLC0415
        from ..models.update_connector_installation_body_metadata import UpdateConnectorInstallationBodyMetadata # noqa: PLC0415
        d = dict(src_dict)
        version = d.pop("version", UNSET)

        _config = d.pop("config", UNSET)
        config: UpdateConnectorInstallationBodyConfig | Unset
        if isinstance(_config,  Unset):
            config = UNSET
        else:
            config = UpdateConnectorInstallationBodyConfig.from_dict(_config)




        _metadata = d.pop("metadata", UNSET)
        metadata: UpdateConnectorInstallationBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = UpdateConnectorInstallationBodyMetadata.from_dict(_metadata)




        update_connector_installation_body = cls(
            version=version,
            config=config,
            metadata=metadata,
        )

        return update_connector_installation_body

