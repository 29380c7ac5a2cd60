from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.codec_payloads_payloads_item_metadata import CodecPayloadsPayloadsItemMetadata





T = TypeVar("T", bound="CodecPayloadsPayloadsItem")



@_attrs_define
class CodecPayloadsPayloadsItem:
    """ 
        Attributes:
            metadata (CodecPayloadsPayloadsItemMetadata | Unset): Metadata by key, each value base64 (`encoding`,
                `encryption-key-id`…).
            data (str | Unset): The payload bytes, base64.
     """

    metadata: CodecPayloadsPayloadsItemMetadata | Unset = UNSET
    data: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.codec_payloads_payloads_item_metadata import CodecPayloadsPayloadsItemMetadata # noqa: PLC0415
        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        data = self.data


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.codec_payloads_payloads_item_metadata import CodecPayloadsPayloadsItemMetadata # noqa: PLC0415
        d = dict(src_dict)
        _metadata = d.pop("metadata", UNSET)
        metadata: CodecPayloadsPayloadsItemMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CodecPayloadsPayloadsItemMetadata.from_dict(_metadata)




        data = d.pop("data", UNSET)

        codec_payloads_payloads_item = cls(
            metadata=metadata,
            data=data,
        )


        codec_payloads_payloads_item.additional_properties = d
        return codec_payloads_payloads_item

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
