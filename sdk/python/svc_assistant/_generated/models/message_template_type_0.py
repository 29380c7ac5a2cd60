from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="MessageTemplateType0")



@_attrs_define
class MessageTemplateType0:
    """ 
        Attributes:
            name (str):
            language (str):
            parameters (list[str]):
     """

    name: str
    language: str
    parameters: list[str]





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        language = self.language

        parameters = self.parameters




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "language": language,
            "parameters": parameters,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        language = d.pop("language")

        parameters = cast(list[str], d.pop("parameters"))


        message_template_type_0 = cls(
            name=name,
            language=language,
            parameters=parameters,
        )

        return message_template_type_0

