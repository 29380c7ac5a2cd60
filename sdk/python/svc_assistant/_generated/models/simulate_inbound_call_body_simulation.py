from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="SimulateInboundCallBodySimulation")



@_attrs_define
class SimulateInboundCallBodySimulation:
    """ 
        Attributes:
            caller (list[str] | Unset):
            pause_seconds (float | Unset):
     """

    caller: list[str] | Unset = UNSET
    pause_seconds: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        caller: list[str] | Unset = UNSET
        if not isinstance(self.caller, Unset):
            caller = self.caller



        pause_seconds = self.pause_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if caller is not UNSET:
            field_dict["caller"] = caller
        if pause_seconds is not UNSET:
            field_dict["pause_seconds"] = pause_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        caller = cast(list[str], d.pop("caller", UNSET))


        pause_seconds = d.pop("pause_seconds", UNSET)

        simulate_inbound_call_body_simulation = cls(
            caller=caller,
            pause_seconds=pause_seconds,
        )

        return simulate_inbound_call_body_simulation

