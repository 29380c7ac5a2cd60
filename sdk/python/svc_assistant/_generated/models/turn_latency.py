from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TurnLatency")



@_attrs_define
class TurnLatency:
    """ How long the caller waited for this answer, in milliseconds, and where the time went. On the first assistant turn of
    each answer to the caller. Null: the call's engine does not measure it.

        Attributes:
            end_of_speech_ms (int | None): The caller's last word to our receipt of the final transcript; null on the
                `pipeline` engine (ConversationRelay does not report when speech ended). `realtime`: the session's
                `speech_stopped` (its `audio_end_ms` less the turn detection's silence) to the transcript, which may come after
                the answer's first audio. Browser voice rooms: the visitor's last voiced audio (the room's endpointing) to the
                transcript, the end-of-turn pause and speech-to-text included; null in a simulated room.
            model_first_token_ms (int | None): The model's time before the first words: earlier requests of the answer (a
                tool round) whole, then the answering request to its first token (`realtime`: each response's `response.created`
                to its `response.done`, then to the answer's first audio delta).
            tool_ms (int | None): Tools run before the first words (the longest call of each round); 0 when none.
            orchestration_ms (int | None): The service's own share: `first_audio_ms` minus the other three (`pipeline`);
                `realtime`: from the model's function calls to their outputs sent back on the session, minus the tools (0
                without tools: the audio does not pass through the service). Browser voice rooms: as `pipeline`, the speech
                synthesis up to its first audio included.
            first_audio_ms (int | None): End of speech (or, when not reported, receipt of the final transcript) to the first
                text sent for synthesis (`pipeline`) or the first audio (`realtime`; browser voice rooms: the first synthesized
                frame put into the room). Simulated calls: from the moment the scripted caller answered.
     """

    end_of_speech_ms: int | None
    model_first_token_ms: int | None
    tool_ms: int | None
    orchestration_ms: int | None
    first_audio_ms: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        end_of_speech_ms: int | None
        end_of_speech_ms = self.end_of_speech_ms

        model_first_token_ms: int | None
        model_first_token_ms = self.model_first_token_ms

        tool_ms: int | None
        tool_ms = self.tool_ms

        orchestration_ms: int | None
        orchestration_ms = self.orchestration_ms

        first_audio_ms: int | None
        first_audio_ms = self.first_audio_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "end_of_speech_ms": end_of_speech_ms,
            "model_first_token_ms": model_first_token_ms,
            "tool_ms": tool_ms,
            "orchestration_ms": orchestration_ms,
            "first_audio_ms": first_audio_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_end_of_speech_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        end_of_speech_ms = _parse_end_of_speech_ms(d.pop("end_of_speech_ms"))


        def _parse_model_first_token_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        model_first_token_ms = _parse_model_first_token_ms(d.pop("model_first_token_ms"))


        def _parse_tool_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        tool_ms = _parse_tool_ms(d.pop("tool_ms"))


        def _parse_orchestration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        orchestration_ms = _parse_orchestration_ms(d.pop("orchestration_ms"))


        def _parse_first_audio_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_audio_ms = _parse_first_audio_ms(d.pop("first_audio_ms"))


        turn_latency = cls(
            end_of_speech_ms=end_of_speech_ms,
            model_first_token_ms=model_first_token_ms,
            tool_ms=tool_ms,
            orchestration_ms=orchestration_ms,
            first_audio_ms=first_audio_ms,
        )


        turn_latency.additional_properties = d
        return turn_latency

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
