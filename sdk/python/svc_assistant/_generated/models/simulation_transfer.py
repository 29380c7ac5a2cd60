from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.simulation_transfer_answer import SimulationTransferAnswer
from ..types import UNSET, Unset






T = TypeVar("T", bound="SimulationTransfer")



@_attrs_define
class SimulationTransfer:
    """ 
        Attributes:
            answer (SimulationTransferAnswer):
            after_seconds (float | Unset):
     """

    answer: SimulationTransferAnswer
    after_seconds: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        answer = self.answer.value

        after_seconds = self.after_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "answer": answer,
        })
        if after_seconds is not UNSET:
            field_dict["after_seconds"] = after_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        answer = SimulationTransferAnswer(d.pop("answer"))




        after_seconds = d.pop("after_seconds", UNSET)

        simulation_transfer = cls(
            answer=answer,
            after_seconds=after_seconds,
        )


        simulation_transfer.additional_properties = d
        return simulation_transfer

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
