from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.call_latency_end_of_speech_ms import CallLatencyEndOfSpeechMs
  from ..models.call_latency_first_audio_ms import CallLatencyFirstAudioMs
  from ..models.call_latency_model_first_token_ms import CallLatencyModelFirstTokenMs
  from ..models.call_latency_orchestration_ms import CallLatencyOrchestrationMs
  from ..models.call_latency_tool_ms import CallLatencyToolMs





T = TypeVar("T", bound="CallLatency")



@_attrs_define
class CallLatency:
    """ The call's answers' latency (each turn's `latency`), p50 and p90 per field, nearest rank.

        Attributes:
            turns (int): Answers with a latency record.
            end_of_speech_ms (CallLatencyEndOfSpeechMs):
            model_first_token_ms (CallLatencyModelFirstTokenMs):
            tool_ms (CallLatencyToolMs):
            orchestration_ms (CallLatencyOrchestrationMs):
            first_audio_ms (CallLatencyFirstAudioMs):
     """

    turns: int
    end_of_speech_ms: CallLatencyEndOfSpeechMs
    model_first_token_ms: CallLatencyModelFirstTokenMs
    tool_ms: CallLatencyToolMs
    orchestration_ms: CallLatencyOrchestrationMs
    first_audio_ms: CallLatencyFirstAudioMs
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call_latency_end_of_speech_ms import CallLatencyEndOfSpeechMs # noqa: PLC0415
        from ..models.call_latency_first_audio_ms import CallLatencyFirstAudioMs # noqa: PLC0415
        from ..models.call_latency_model_first_token_ms import CallLatencyModelFirstTokenMs # noqa: PLC0415
        from ..models.call_latency_orchestration_ms import CallLatencyOrchestrationMs # noqa: PLC0415
        from ..models.call_latency_tool_ms import CallLatencyToolMs # noqa: PLC0415
        turns = self.turns

        end_of_speech_ms = self.end_of_speech_ms.to_dict()

        model_first_token_ms = self.model_first_token_ms.to_dict()

        tool_ms = self.tool_ms.to_dict()

        orchestration_ms = self.orchestration_ms.to_dict()

        first_audio_ms = self.first_audio_ms.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "turns": turns,
            "end_of_speech_ms": end_of_speech_ms,
            "model_first_token_ms": model_first_token_ms,
            "tool_ms": tool_ms,
            "orchestration_ms": orchestration_ms,
            "first_audio_ms": first_audio_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call_latency_end_of_speech_ms import CallLatencyEndOfSpeechMs # noqa: PLC0415
        from ..models.call_latency_first_audio_ms import CallLatencyFirstAudioMs # noqa: PLC0415
        from ..models.call_latency_model_first_token_ms import CallLatencyModelFirstTokenMs # noqa: PLC0415
        from ..models.call_latency_orchestration_ms import CallLatencyOrchestrationMs # noqa: PLC0415
        from ..models.call_latency_tool_ms import CallLatencyToolMs # noqa: PLC0415
        d = dict(src_dict)
        turns = d.pop("turns")

        end_of_speech_ms = CallLatencyEndOfSpeechMs.from_dict(d.pop("end_of_speech_ms"))




        model_first_token_ms = CallLatencyModelFirstTokenMs.from_dict(d.pop("model_first_token_ms"))




        tool_ms = CallLatencyToolMs.from_dict(d.pop("tool_ms"))




        orchestration_ms = CallLatencyOrchestrationMs.from_dict(d.pop("orchestration_ms"))




        first_audio_ms = CallLatencyFirstAudioMs.from_dict(d.pop("first_audio_ms"))




        call_latency = cls(
            turns=turns,
            end_of_speech_ms=end_of_speech_ms,
            model_first_token_ms=model_first_token_ms,
            tool_ms=tool_ms,
            orchestration_ms=orchestration_ms,
            first_audio_ms=first_audio_ms,
        )


        call_latency.additional_properties = d
        return call_latency

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
