from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="UpdateKnowledgeDocumentBody")



@_attrs_define
class UpdateKnowledgeDocumentBody:
    """ 
        Attributes:
            title (str | Unset):
            text (str | Unset):
     """

    title: str | Unset = UNSET
    text: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        title = self.title

        text = self.text


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if title is not UNSET:
            field_dict["title"] = title
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        title = d.pop("title", UNSET)

        text = d.pop("text", UNSET)

        update_knowledge_document_body = cls(
            title=title,
            text=text,
        )

        return update_knowledge_document_body

