from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_webhook_endpoint_body_metadata import UpdateWebhookEndpointBodyMetadata





T = TypeVar("T", bound="UpdateWebhookEndpointBody")



@_attrs_define
class UpdateWebhookEndpointBody:
    """ 
        Attributes:
            url (str | Unset):
            events (list[str] | Unset):
            description (None | str | Unset):
            metadata (UpdateWebhookEndpointBodyMetadata | Unset):
            disabled (bool | Unset):
     """

    url: str | Unset = UNSET
    events: list[str] | Unset = UNSET
    description: None | str | Unset = UNSET
    metadata: UpdateWebhookEndpointBodyMetadata | Unset = UNSET
    disabled: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_webhook_endpoint_body_metadata import UpdateWebhookEndpointBodyMetadata # noqa: PLC0415
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events



        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        disabled = self.disabled


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if disabled is not UNSET:
            field_dict["disabled"] = disabled

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_webhook_endpoint_body_metadata import UpdateWebhookEndpointBodyMetadata # noqa: PLC0415
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        events = cast(list[str], d.pop("events", UNSET))


        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        _metadata = d.pop("metadata", UNSET)
        metadata: UpdateWebhookEndpointBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = UpdateWebhookEndpointBodyMetadata.from_dict(_metadata)




        disabled = d.pop("disabled", UNSET)

        update_webhook_endpoint_body = cls(
            url=url,
            events=events,
            description=description,
            metadata=metadata,
            disabled=disabled,
        )

        return update_webhook_endpoint_body

