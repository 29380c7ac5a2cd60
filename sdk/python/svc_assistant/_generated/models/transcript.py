from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.transcript_turn import TranscriptTurn





T = TypeVar("T", bound="Transcript")



@_attrs_define
class Transcript:
    """ An ended call's turns, in order, with the tools the assistant called and the knowledge it was given.

        Attributes:
            object_ (Literal['transcript']):
            call_id (str):
            livemode (bool):
            created (int): Unix time in seconds.
            turns (list[TranscriptTurn]):
     """

    object_: Literal['transcript']
    call_id: str
    livemode: bool
    created: int
    turns: list[TranscriptTurn]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.transcript_turn import TranscriptTurn # noqa: PLC0415
        object_ = self.object_

        call_id = self.call_id

        livemode = self.livemode

        created = self.created

        turns = []
        for turns_item_data in self.turns:
            turns_item = turns_item_data.to_dict()
            turns.append(turns_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "call_id": call_id,
            "livemode": livemode,
            "created": created,
            "turns": turns,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.transcript_turn import TranscriptTurn # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['transcript'] , d.pop("object"))
        if object_ != 'transcript':
            raise ValueError(f"object must match const 'transcript', got '{object_}'")

        call_id = d.pop("call_id")

        livemode = d.pop("livemode")

        created = d.pop("created")

        turns = []
        _turns = d.pop("turns")
        for turns_item_data in (_turns):
            turns_item = TranscriptTurn.from_dict(turns_item_data)



            turns.append(turns_item)


        transcript = cls(
            object_=object_,
            call_id=call_id,
            livemode=livemode,
            created=created,
            turns=turns,
        )


        transcript.additional_properties = d
        return transcript

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
