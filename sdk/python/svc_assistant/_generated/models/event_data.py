from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="EventData")



@_attrs_define
class EventData:
    """ 
        Attributes:
            object_ (Any):
     """

    object_: Any





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "object": object_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = d.pop("object")

        event_data = cls(
            object_=object_,
        )

        return event_data

