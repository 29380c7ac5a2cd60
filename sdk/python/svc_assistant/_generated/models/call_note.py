from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="CallNote")



@_attrs_define
class CallNote:
    """ A note the model sees from its next turn on during a live call (`POST /v1/calls/{id}/context`); the caller does not
    hear it.

        Attributes:
            object_ (Literal['call_note']):
            call_id (str):
            note (str):
     """

    object_: Literal['call_note']
    call_id: str
    note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        call_id = self.call_id

        note = self.note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "call_id": call_id,
            "note": note,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = cast(Literal['call_note'] , d.pop("object"))
        if object_ != 'call_note':
            raise ValueError(f"object must match const 'call_note', got '{object_}'")

        call_id = d.pop("call_id")

        note = d.pop("note")

        call_note = cls(
            object_=object_,
            call_id=call_id,
            note=note,
        )


        call_note.additional_properties = d
        return call_note

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
