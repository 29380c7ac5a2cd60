from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.connector_installation_config import ConnectorInstallationConfig
  from ..models.connector_installation_metadata import ConnectorInstallationMetadata





T = TypeVar("T", bound="ConnectorInstallation")



@_attrs_define
class ConnectorInstallation:
    """ A published connector version installed by your organization, with the config you supplied. Secret config values
    (`x-secret` in the version's `config_schema`) are shown by name only; the signing `secret` is shown once, at
    creation.

        Attributes:
            id (str):
            object_ (Literal['connector_installation']):
            livemode (bool):
            connector_id (str):
            version (str):
            config (ConnectorInstallationConfig): The config values that are not secret.
            secret_config_keys (list[str]): The names of the secret config values you supplied; their values are never
                shown.
            tools (list[str]): The names the assistant calls the version's tools by: `<last label of the connector
                id>__<tool>`.
            metadata (ConnectorInstallationMetadata): Your key-value pairs (at most 50 keys).
            created (int): Unix time in seconds.
            updated (int): Unix time in seconds.
            secret (str | Unset): Signs each request of the connector's tools (`Svc-Signature`, as webhooks are signed).
                Only in the answer of the creation.
     """

    id: str
    object_: Literal['connector_installation']
    livemode: bool
    connector_id: str
    version: str
    config: ConnectorInstallationConfig
    secret_config_keys: list[str]
    tools: list[str]
    metadata: ConnectorInstallationMetadata
    created: int
    updated: int
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.connector_installation_config import ConnectorInstallationConfig # noqa: PLC0415
        from ..models.connector_installation_metadata import ConnectorInstallationMetadata # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        connector_id = self.connector_id

        version = self.version

        config = self.config.to_dict()

        secret_config_keys = self.secret_config_keys



        tools = self.tools



        metadata = self.metadata.to_dict()

        created = self.created

        updated = self.updated

        secret = self.secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "connector_id": connector_id,
            "version": version,
            "config": config,
            "secret_config_keys": secret_config_keys,
            "tools": tools,
            "metadata": metadata,
            "created": created,
            "updated": updated,
        })
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connector_installation_config import ConnectorInstallationConfig # noqa: PLC0415
        from ..models.connector_installation_metadata import ConnectorInstallationMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['connector_installation'] , d.pop("object"))
        if object_ != 'connector_installation':
            raise ValueError(f"object must match const 'connector_installation', got '{object_}'")

        livemode = d.pop("livemode")

        connector_id = d.pop("connector_id")

        version = d.pop("version")

        config = ConnectorInstallationConfig.from_dict(d.pop("config"))




        secret_config_keys = cast(list[str], d.pop("secret_config_keys"))


        tools = cast(list[str], d.pop("tools"))


        metadata = ConnectorInstallationMetadata.from_dict(d.pop("metadata"))




        created = d.pop("created")

        updated = d.pop("updated")

        secret = d.pop("secret", UNSET)

        connector_installation = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            connector_id=connector_id,
            version=version,
            config=config,
            secret_config_keys=secret_config_keys,
            tools=tools,
            metadata=metadata,
            created=created,
            updated=updated,
            secret=secret,
        )


        connector_installation.additional_properties = d
        return connector_installation

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
