from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PublishConnectorVersionBody")



@_attrs_define
class PublishConnectorVersionBody:
    """ 
        Attributes:
            bundle (str):
            signature (str):
     """

    bundle: str
    signature: str





    def to_dict(self) -> dict[str, Any]:
        bundle = self.bundle

        signature = self.signature


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bundle": bundle,
            "signature": signature,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle = d.pop("bundle")

        signature = d.pop("signature")

        publish_connector_version_body = cls(
            bundle=bundle,
            signature=signature,
        )

        return publish_connector_version_body

