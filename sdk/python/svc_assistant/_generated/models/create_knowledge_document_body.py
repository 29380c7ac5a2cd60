from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CreateKnowledgeDocumentBody")



@_attrs_define
class CreateKnowledgeDocumentBody:
    """ 
        Attributes:
            agent_id (str):
            title (str):
            text (str):
     """

    agent_id: str
    title: str
    text: str





    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        title = self.title

        text = self.text


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
            "title": title,
            "text": text,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        title = d.pop("title")

        text = d.pop("text")

        create_knowledge_document_body = cls(
            agent_id=agent_id,
            title=title,
            text=text,
        )

        return create_knowledge_document_body

