from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="AdvanceCallClockBody")



@_attrs_define
class AdvanceCallClockBody:
    """ 
        Attributes:
            to (int | Unset): The time the call's clock moves to, unix seconds (default: the call's `scheduled_at`).
     """

    to: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        to = self.to


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to = d.pop("to", UNSET)

        advance_call_clock_body = cls(
            to=to,
        )

        return advance_call_clock_body

