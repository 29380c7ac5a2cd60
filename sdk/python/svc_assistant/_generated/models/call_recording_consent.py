from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_recording_consent_answer_type_0 import CallRecordingConsentAnswerType0
from ..models.call_recording_consent_mode import CallRecordingConsentMode
from ..models.call_recording_consent_recording import CallRecordingConsentRecording
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CallRecordingConsent")



@_attrs_define
class CallRecordingConsent:
    """ 
        Attributes:
            mode (CallRecordingConsentMode): `announce`, `ask` or `off` (the agent version's `recording_consent`, or
                `announce` by default in an all-party-consent jurisdiction), or `none`: no consent step (recorded as `recording`
                says).
            configured (bool): The mode is the agent version's `recording_consent`, not the default.
            jurisdiction (None | str): The all-party-consent or notice jurisdiction found from the numbers: `US-CA`, `US-
                FL`… or a country (`DE`, `GB`, `CA`, `AU`); null: none.
            asked (bool): The opening asked the caller for consent (`ask`).
            answer (CallRecordingConsentAnswerType0 | None): How the caller answered the question; `unclear` keeps recording
                off like `no`. Null: not asked, or not answered yet.
            recording (CallRecordingConsentRecording): Whether the call is recorded (`ask`: from the yes on).
            words (None | str): What the assistant said about recording (the announcement or the question).
            language (str): The language the sentences were said in (ISO 639-1).
            answer_seq (int | None | Unset): The transcript turn (`seq`) of the caller's answer.
            error (str | Unset): Why recording did not start after a yes (the provider refused it).
     """

    mode: CallRecordingConsentMode
    configured: bool
    jurisdiction: None | str
    asked: bool
    answer: CallRecordingConsentAnswerType0 | None
    recording: CallRecordingConsentRecording
    words: None | str
    language: str
    answer_seq: int | None | Unset = UNSET
    error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        configured = self.configured

        jurisdiction: None | str
        jurisdiction = self.jurisdiction

        asked = self.asked

        answer: None | str
        if isinstance(self.answer, CallRecordingConsentAnswerType0):
            answer = self.answer.value
        else:
            answer = self.answer

        recording = self.recording.value

        words: None | str
        words = self.words

        language = self.language

        answer_seq: int | None | Unset
        if isinstance(self.answer_seq, Unset):
            answer_seq = UNSET
        else:
            answer_seq = self.answer_seq

        error = self.error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "configured": configured,
            "jurisdiction": jurisdiction,
            "asked": asked,
            "answer": answer,
            "recording": recording,
            "words": words,
            "language": language,
        })
        if answer_seq is not UNSET:
            field_dict["answer_seq"] = answer_seq
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = CallRecordingConsentMode(d.pop("mode"))




        configured = d.pop("configured")

        def _parse_jurisdiction(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        jurisdiction = _parse_jurisdiction(d.pop("jurisdiction"))


        asked = d.pop("asked")

        def _parse_answer(data: object) -> CallRecordingConsentAnswerType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                answer_type_0 = CallRecordingConsentAnswerType0(data)



                return answer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallRecordingConsentAnswerType0 | None, data)

        answer = _parse_answer(d.pop("answer"))


        recording = CallRecordingConsentRecording(d.pop("recording"))




        def _parse_words(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        words = _parse_words(d.pop("words"))


        language = d.pop("language")

        def _parse_answer_seq(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        answer_seq = _parse_answer_seq(d.pop("answer_seq", UNSET))


        error = d.pop("error", UNSET)

        call_recording_consent = cls(
            mode=mode,
            configured=configured,
            jurisdiction=jurisdiction,
            asked=asked,
            answer=answer,
            recording=recording,
            words=words,
            language=language,
            answer_seq=answer_seq,
            error=error,
        )


        call_recording_consent.additional_properties = d
        return call_recording_consent

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
