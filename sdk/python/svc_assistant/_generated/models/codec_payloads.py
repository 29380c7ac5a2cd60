from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.codec_payloads_payloads_item import CodecPayloadsPayloadsItem





T = TypeVar("T", bound="CodecPayloads")



@_attrs_define
class CodecPayloads:
    """ Temporal payloads in proto3 JSON (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a
    codec server.

        Attributes:
            payloads (list[CodecPayloadsPayloadsItem]):
     """

    payloads: list[CodecPayloadsPayloadsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.codec_payloads_payloads_item import CodecPayloadsPayloadsItem # noqa: PLC0415
        payloads = []
        for payloads_item_data in self.payloads:
            payloads_item = payloads_item_data.to_dict()
            payloads.append(payloads_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "payloads": payloads,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.codec_payloads_payloads_item import CodecPayloadsPayloadsItem # noqa: PLC0415
        d = dict(src_dict)
        payloads = []
        _payloads = d.pop("payloads")
        for payloads_item_data in (_payloads):
            payloads_item = CodecPayloadsPayloadsItem.from_dict(payloads_item_data)



            payloads.append(payloads_item)


        codec_payloads = cls(
            payloads=payloads,
        )


        codec_payloads.additional_properties = d
        return codec_payloads

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
