from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TranscriptTurnTool")



@_attrs_define
class TranscriptTurnTool:
    """ 
        Attributes:
            name (str):
            arguments (Any):
     """

    name: str
    arguments: Any





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        arguments = self.arguments


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "arguments": arguments,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        arguments = d.pop("arguments")

        transcript_turn_tool = cls(
            name=name,
            arguments=arguments,
        )

        return transcript_turn_tool

