from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="AgentVersionConfigTurnTakingTurnDetection1")



@_attrs_define
class AgentVersionConfigTurnTakingTurnDetection1:
    """ 
        Attributes:
            type_ (Literal['server_vad']):
            threshold (float | Unset): Activation threshold 0–1 (default 0.5): higher needs louder speech, better in noisy
                places.
            prefix_padding_ms (int | Unset): Audio kept before detected speech, ms (default 300).
            silence_duration_ms (int | Unset): Silence that ends the caller’s turn, ms (default 500): shorter answers sooner
                but cuts in on pauses.
     """

    type_: Literal['server_vad']
    threshold: float | Unset = UNSET
    prefix_padding_ms: int | Unset = UNSET
    silence_duration_ms: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        threshold = self.threshold

        prefix_padding_ms = self.prefix_padding_ms

        silence_duration_ms = self.silence_duration_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
        })
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if prefix_padding_ms is not UNSET:
            field_dict["prefix_padding_ms"] = prefix_padding_ms
        if silence_duration_ms is not UNSET:
            field_dict["silence_duration_ms"] = silence_duration_ms

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['server_vad'] , d.pop("type"))
        if type_ != 'server_vad':
            raise ValueError(f"type must match const 'server_vad', got '{type_}'")

        threshold = d.pop("threshold", UNSET)

        prefix_padding_ms = d.pop("prefix_padding_ms", UNSET)

        silence_duration_ms = d.pop("silence_duration_ms", UNSET)

        agent_version_config_turn_taking_turn_detection_1 = cls(
            type_=type_,
            threshold=threshold,
            prefix_padding_ms=prefix_padding_ms,
            silence_duration_ms=silence_duration_ms,
        )


        agent_version_config_turn_taking_turn_detection_1.additional_properties = d
        return agent_version_config_turn_taking_turn_detection_1

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
