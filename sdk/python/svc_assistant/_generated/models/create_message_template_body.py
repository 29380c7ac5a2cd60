from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateMessageTemplateBody")



@_attrs_define
class CreateMessageTemplateBody:
    """ 
        Attributes:
            name (str):
            language (str):
            body (str):
            content_sid (str | Unset):
     """

    name: str
    language: str
    body: str
    content_sid: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        language = self.language

        body = self.body

        content_sid = self.content_sid


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "language": language,
            "body": body,
        })
        if content_sid is not UNSET:
            field_dict["content_sid"] = content_sid

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        language = d.pop("language")

        body = d.pop("body")

        content_sid = d.pop("content_sid", UNSET)

        create_message_template_body = cls(
            name=name,
            language=language,
            body=body,
            content_sid=content_sid,
        )

        return create_message_template_body

