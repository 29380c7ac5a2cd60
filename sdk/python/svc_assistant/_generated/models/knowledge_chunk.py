from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="KnowledgeChunk")



@_attrs_define
class KnowledgeChunk:
    """ A search hit: a chunk of a knowledge document and its score.

        Attributes:
            object_ (Literal['knowledge_chunk']):
            document (str):
            chunk (int):
            title (str):
            text (str):
            score (float):
     """

    object_: Literal['knowledge_chunk']
    document: str
    chunk: int
    title: str
    text: str
    score: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        document = self.document

        chunk = self.chunk

        title = self.title

        text = self.text

        score = self.score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "document": document,
            "chunk": chunk,
            "title": title,
            "text": text,
            "score": score,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = cast(Literal['knowledge_chunk'] , d.pop("object"))
        if object_ != 'knowledge_chunk':
            raise ValueError(f"object must match const 'knowledge_chunk', got '{object_}'")

        document = d.pop("document")

        chunk = d.pop("chunk")

        title = d.pop("title")

        text = d.pop("text")

        score = d.pop("score")

        knowledge_chunk = cls(
            object_=object_,
            document=document,
            chunk=chunk,
            title=title,
            text=text,
            score=score,
        )


        knowledge_chunk.additional_properties = d
        return knowledge_chunk

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
