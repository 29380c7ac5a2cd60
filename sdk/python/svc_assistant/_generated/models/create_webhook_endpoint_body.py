from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_webhook_endpoint_body_metadata import CreateWebhookEndpointBodyMetadata





T = TypeVar("T", bound="CreateWebhookEndpointBody")



@_attrs_define
class CreateWebhookEndpointBody:
    """ 
        Attributes:
            url (str):
            events (list[str]):
            description (str | Unset):
            metadata (CreateWebhookEndpointBodyMetadata | Unset):
     """

    url: str
    events: list[str]
    description: str | Unset = UNSET
    metadata: CreateWebhookEndpointBodyMetadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_webhook_endpoint_body_metadata import CreateWebhookEndpointBodyMetadata # noqa: PLC0415
        url = self.url

        events = self.events



        description = self.description

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
            "events": events,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_webhook_endpoint_body_metadata import CreateWebhookEndpointBodyMetadata # noqa: PLC0415
        d = dict(src_dict)
        url = d.pop("url")

        events = cast(list[str], d.pop("events"))


        description = d.pop("description", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: CreateWebhookEndpointBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateWebhookEndpointBodyMetadata.from_dict(_metadata)




        create_webhook_endpoint_body = cls(
            url=url,
            events=events,
            description=description,
            metadata=metadata,
        )

        return create_webhook_endpoint_body

