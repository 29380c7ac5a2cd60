from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="CreateAgentBodyTurnTakingTurnDetectionType0")



@_attrs_define
class CreateAgentBodyTurnTakingTurnDetectionType0:
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





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        threshold = self.threshold

        prefix_padding_ms = self.prefix_padding_ms

        silence_duration_ms = self.silence_duration_ms


        field_dict: dict[str, Any] = {}

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

        create_agent_body_turn_taking_turn_detection_type_0 = cls(
            type_=type_,
            threshold=threshold,
            prefix_padding_ms=prefix_padding_ms,
            silence_duration_ms=silence_duration_ms,
        )

        return create_agent_body_turn_taking_turn_detection_type_0

