from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_endpoint_status import WebhookEndpointStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.webhook_endpoint_metadata import WebhookEndpointMetadata





T = TypeVar("T", bound="WebhookEndpoint")



@_attrs_define
class WebhookEndpoint:
    """ An HTTPS URL that receives signed events. `secret` is shown only on creation and rotation.

        Attributes:
            id (str):
            object_ (Literal['webhook_endpoint']):
            livemode (bool):
            url (str):
            events (list[str]):
            description (None | str):
            metadata (WebhookEndpointMetadata): Your key-value pairs (at most 50 keys).
            status (WebhookEndpointStatus):
            disabled_reason (None | str):
            api_version (str):
            created (int): Unix time in seconds.
            secret_rotation_expires_at (int | None):
            secret (str | Unset):
     """

    id: str
    object_: Literal['webhook_endpoint']
    livemode: bool
    url: str
    events: list[str]
    description: None | str
    metadata: WebhookEndpointMetadata
    status: WebhookEndpointStatus
    disabled_reason: None | str
    api_version: str
    created: int
    secret_rotation_expires_at: int | None
    secret: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_endpoint_metadata import WebhookEndpointMetadata # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        url = self.url

        events = self.events



        description: None | str
        description = self.description

        metadata = self.metadata.to_dict()

        status = self.status.value

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        api_version = self.api_version

        created = self.created

        secret_rotation_expires_at: int | None
        secret_rotation_expires_at = self.secret_rotation_expires_at

        secret = self.secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "url": url,
            "events": events,
            "description": description,
            "metadata": metadata,
            "status": status,
            "disabled_reason": disabled_reason,
            "api_version": api_version,
            "created": created,
            "secret_rotation_expires_at": secret_rotation_expires_at,
        })
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_endpoint_metadata import WebhookEndpointMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['webhook_endpoint'] , d.pop("object"))
        if object_ != 'webhook_endpoint':
            raise ValueError(f"object must match const 'webhook_endpoint', got '{object_}'")

        livemode = d.pop("livemode")

        url = d.pop("url")

        events = cast(list[str], d.pop("events"))


        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        metadata = WebhookEndpointMetadata.from_dict(d.pop("metadata"))




        status = WebhookEndpointStatus(d.pop("status"))




        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))


        api_version = d.pop("api_version")

        created = d.pop("created")

        def _parse_secret_rotation_expires_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        secret_rotation_expires_at = _parse_secret_rotation_expires_at(d.pop("secret_rotation_expires_at"))


        secret = d.pop("secret", UNSET)

        webhook_endpoint = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            url=url,
            events=events,
            description=description,
            metadata=metadata,
            status=status,
            disabled_reason=disabled_reason,
            api_version=api_version,
            created=created,
            secret_rotation_expires_at=secret_rotation_expires_at,
            secret=secret,
        )


        webhook_endpoint.additional_properties = d
        return webhook_endpoint

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
