from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SayOnCallBody")



@_attrs_define
class SayOnCallBody:
    """ 
        Attributes:
            text (str): What the assistant says, as it says it (1 to 1,000 characters).
            interrupt (bool | Unset): false (default): said at the next pause, once the answer being given is heard out;
                true: said at once, cutting what the assistant is saying, and heard whole (not interruptible by the caller).
     """

    text: str
    interrupt: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        text = self.text

        interrupt = self.interrupt


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "text": text,
        })
        if interrupt is not UNSET:
            field_dict["interrupt"] = interrupt

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        interrupt = d.pop("interrupt", UNSET)

        say_on_call_body = cls(
            text=text,
            interrupt=interrupt,
        )

        return say_on_call_body

