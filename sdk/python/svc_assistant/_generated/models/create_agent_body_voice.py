from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_agent_body_voice_provider import CreateAgentBodyVoiceProvider






T = TypeVar("T", bound="CreateAgentBodyVoice")



@_attrs_define
class CreateAgentBodyVoice:
    """ The assistant's text-to-speech voice on phone calls; null: ConversationRelay's default.

        Attributes:
            provider (CreateAgentBodyVoiceProvider): ConversationRelay's `ttsProvider`.
            voice_id (str): The provider's voice (ConversationRelay's `voice`), e.g. `en-US-Journey-O` or `Polly.Joanna-
                Neural`.
     """

    provider: CreateAgentBodyVoiceProvider
    voice_id: str





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        voice_id = self.voice_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "provider": provider,
            "voice_id": voice_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = CreateAgentBodyVoiceProvider(d.pop("provider"))




        voice_id = d.pop("voice_id")

        create_agent_body_voice = cls(
            provider=provider,
            voice_id=voice_id,
        )

        return create_agent_body_voice

