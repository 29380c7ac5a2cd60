from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateCallBodySimulationBargeInsItem")



@_attrs_define
class CreateCallBodySimulationBargeInsItem:
    """ 
        Attributes:
            line (int): The index (0-based) of the `caller` line said over the answer before it.
            heard (str | Unset): What the caller had heard of the answer when they started (default: nothing).
     """

    line: int
    heard: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        line = self.line

        heard = self.heard


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "line": line,
        })
        if heard is not UNSET:
            field_dict["heard"] = heard

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        line = d.pop("line")

        heard = d.pop("heard", UNSET)

        create_call_body_simulation_barge_ins_item = cls(
            line=line,
            heard=heard,
        )

        return create_call_body_simulation_barge_ins_item

