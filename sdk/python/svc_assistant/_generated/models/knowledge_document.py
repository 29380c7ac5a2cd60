from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="KnowledgeDocument")



@_attrs_define
class KnowledgeDocument:
    """ A document of an agent's knowledge, split in chunks the assistant is given when they match.

        Attributes:
            id (str):
            object_ (Literal['knowledge_document']):
            livemode (bool):
            agent_id (str):
            title (str):
            characters (int):
            chunks (int):
            created (int): Unix time in seconds.
            updated (int): Unix time in seconds.
     """

    id: str
    object_: Literal['knowledge_document']
    livemode: bool
    agent_id: str
    title: str
    characters: int
    chunks: int
    created: int
    updated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        agent_id = self.agent_id

        title = self.title

        characters = self.characters

        chunks = self.chunks

        created = self.created

        updated = self.updated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "agent_id": agent_id,
            "title": title,
            "characters": characters,
            "chunks": chunks,
            "created": created,
            "updated": updated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['knowledge_document'] , d.pop("object"))
        if object_ != 'knowledge_document':
            raise ValueError(f"object must match const 'knowledge_document', got '{object_}'")

        livemode = d.pop("livemode")

        agent_id = d.pop("agent_id")

        title = d.pop("title")

        characters = d.pop("characters")

        chunks = d.pop("chunks")

        created = d.pop("created")

        updated = d.pop("updated")

        knowledge_document = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            agent_id=agent_id,
            title=title,
            characters=characters,
            chunks=chunks,
            created=created,
            updated=updated,
        )


        knowledge_document.additional_properties = d
        return knowledge_document

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
