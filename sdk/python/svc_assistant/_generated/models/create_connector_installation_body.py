from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_connector_installation_body_config import CreateConnectorInstallationBodyConfig
  from ..models.create_connector_installation_body_metadata import CreateConnectorInstallationBodyMetadata





T = TypeVar("T", bound="CreateConnectorInstallationBody")



@_attrs_define
class CreateConnectorInstallationBody:
    """ 
        Attributes:
            connector_id (str): The connector to install: any connector published in this mode.
            version (str | Unset): A published version of the connector; its latest release when omitted.
            config (CreateConnectorInstallationBodyConfig | Unset): Values for the version's `config_schema`; those it marks
                `x-secret` are stored sealed and shown by name only.
            metadata (CreateConnectorInstallationBodyMetadata | Unset):
     """

    connector_id: str
    version: str | Unset = UNSET
    config: CreateConnectorInstallationBodyConfig | Unset = UNSET
    metadata: CreateConnectorInstallationBodyMetadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_connector_installation_body_config import CreateConnectorInstallationBodyConfig # noqa: PLC0415
        from ..models.create_connector_installation_body_metadata import CreateConnectorInstallationBodyMetadata # noqa: PLC0415
        connector_id = self.connector_id

        version = self.version

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "connector_id": connector_id,
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
        from ..models.create_connector_installation_body_config import CreateConnectorInstallationBodyConfig # noqa: PLC0415
        from ..models.create_connector_installation_body_metadata import CreateConnectorInstallationBodyMetadata # noqa: PLC0415
        d = dict(src_dict)
        connector_id = d.pop("connector_id")

        version = d.pop("version", UNSET)

        _config = d.pop("config", UNSET)
        config: CreateConnectorInstallationBodyConfig | Unset
        if isinstance(_config,  Unset):
            config = UNSET
        else:
            config = CreateConnectorInstallationBodyConfig.from_dict(_config)




        _metadata = d.pop("metadata", UNSET)
        metadata: CreateConnectorInstallationBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateConnectorInstallationBodyMetadata.from_dict(_metadata)




        create_connector_installation_body = cls(
            connector_id=connector_id,
            version=version,
            config=config,
            metadata=metadata,
        )

        return create_connector_installation_body

