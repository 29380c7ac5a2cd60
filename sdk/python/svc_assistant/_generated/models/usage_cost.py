from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageCost")



@_attrs_define
class UsageCost:
    """ What the calls, conversation turns and analyses of a period cost: the sums of their recorded `Cost`s, in integer
    micro-units (millionths) of the dollar; `incomplete` counts the costs that lack a model missing from the price
    table.

        Attributes:
            total_micros (int):
            telephony_micros (int):
            model_micros (int):
            recording_micros (int):
            platform_micros (int):
            incomplete (int):
     """

    total_micros: int
    telephony_micros: int
    model_micros: int
    recording_micros: int
    platform_micros: int
    incomplete: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        total_micros = self.total_micros

        telephony_micros = self.telephony_micros

        model_micros = self.model_micros

        recording_micros = self.recording_micros

        platform_micros = self.platform_micros

        incomplete = self.incomplete


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "total_micros": total_micros,
            "telephony_micros": telephony_micros,
            "model_micros": model_micros,
            "recording_micros": recording_micros,
            "platform_micros": platform_micros,
            "incomplete": incomplete,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total_micros = d.pop("total_micros")

        telephony_micros = d.pop("telephony_micros")

        model_micros = d.pop("model_micros")

        recording_micros = d.pop("recording_micros")

        platform_micros = d.pop("platform_micros")

        incomplete = d.pop("incomplete")

        usage_cost = cls(
            total_micros=total_micros,
            telephony_micros=telephony_micros,
            model_micros=model_micros,
            recording_micros=recording_micros,
            platform_micros=platform_micros,
            incomplete=incomplete,
        )


        usage_cost.additional_properties = d
        return usage_cost

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
