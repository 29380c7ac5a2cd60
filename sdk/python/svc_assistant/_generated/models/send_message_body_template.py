from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SendMessageBodyTemplate")



@_attrs_define
class SendMessageBodyTemplate:
    """ 
        Attributes:
            name (str):
            language (str):
            parameters (list[str] | Unset):
     """

    name: str
    language: str
    parameters: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        language = self.language

        parameters: list[str] | Unset = UNSET
        if not isinstance(self.parameters, Unset):
            parameters = self.parameters




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "language": language,
        })
        if parameters is not UNSET:
            field_dict["parameters"] = parameters

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        language = d.pop("language")

        parameters = cast(list[str], d.pop("parameters", UNSET))


        send_message_body_template = cls(
            name=name,
            language=language,
            parameters=parameters,
        )

        return send_message_body_template

