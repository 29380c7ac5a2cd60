from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TranscriptTurnKnowledgeItem")



@_attrs_define
class TranscriptTurnKnowledgeItem:
    """ 
        Attributes:
            document (str):
            chunk (int):
     """

    document: str
    chunk: int





    def to_dict(self) -> dict[str, Any]:
        document = self.document

        chunk = self.chunk


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "document": document,
            "chunk": chunk,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document = d.pop("document")

        chunk = d.pop("chunk")

        transcript_turn_knowledge_item = cls(
            document=document,
            chunk=chunk,
        )

        return transcript_turn_knowledge_item

