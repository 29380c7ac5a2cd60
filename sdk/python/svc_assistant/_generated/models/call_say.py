from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="CallSay")



@_attrs_define
class CallSay:
    """ A line the assistant said on the API's behalf during a live call (`POST /v1/calls/{id}/say`).

        Attributes:
            object_ (Literal['call_say']):
            call_id (str):
            text (str):
            interrupt (bool):
            spoken (bool): Whether it was said: false when the call stopped before the next pause, or no voice session of
                the call took it (the line is then not in the transcript).
     """

    object_: Literal['call_say']
    call_id: str
    text: str
    interrupt: bool
    spoken: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        call_id = self.call_id

        text = self.text

        interrupt = self.interrupt

        spoken = self.spoken


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "call_id": call_id,
            "text": text,
            "interrupt": interrupt,
            "spoken": spoken,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = cast(Literal['call_say'] , d.pop("object"))
        if object_ != 'call_say':
            raise ValueError(f"object must match const 'call_say', got '{object_}'")

        call_id = d.pop("call_id")

        text = d.pop("text")

        interrupt = d.pop("interrupt")

        spoken = d.pop("spoken")

        call_say = cls(
            object_=object_,
            call_id=call_id,
            text=text,
            interrupt=interrupt,
            spoken=spoken,
        )


        call_say.additional_properties = d
        return call_say

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
