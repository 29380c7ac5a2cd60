from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_agent_body_transcription_type_0_provider import UpdateAgentBodyTranscriptionType0Provider
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateAgentBodyTranscriptionType0")



@_attrs_define
class UpdateAgentBodyTranscriptionType0:
    """ The assistant's speech recognition on phone calls; null: ConversationRelay's default.

        Attributes:
            provider (UpdateAgentBodyTranscriptionType0Provider): ConversationRelay's `transcriptionProvider`.
            hints (list[str] | Unset): Words and phrases to recognize better (product names, jargon): ConversationRelay
                `hints`.
     """

    provider: UpdateAgentBodyTranscriptionType0Provider
    hints: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        hints: list[str] | Unset = UNSET
        if not isinstance(self.hints, Unset):
            hints = self.hints




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "provider": provider,
        })
        if hints is not UNSET:
            field_dict["hints"] = hints

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = UpdateAgentBodyTranscriptionType0Provider(d.pop("provider"))




        hints = cast(list[str], d.pop("hints", UNSET))


        update_agent_body_transcription_type_0 = cls(
            provider=provider,
            hints=hints,
        )

        return update_agent_body_transcription_type_0

