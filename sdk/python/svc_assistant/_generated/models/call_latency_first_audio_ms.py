from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CallLatencyFirstAudioMs")



@_attrs_define
class CallLatencyFirstAudioMs:
    """ 
        Attributes:
            p50 (int | None):
            p90 (int | None):
     """

    p50: int | None
    p90: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        p50: int | None
        p50 = self.p50

        p90: int | None
        p90 = self.p90


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "p50": p50,
            "p90": p90,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_p50(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        p50 = _parse_p50(d.pop("p50"))


        def _parse_p90(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        p90 = _parse_p90(d.pop("p90"))


        call_latency_first_audio_ms = cls(
            p50=p50,
            p90=p90,
        )


        call_latency_first_audio_ms.additional_properties = d
        return call_latency_first_audio_ms

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
