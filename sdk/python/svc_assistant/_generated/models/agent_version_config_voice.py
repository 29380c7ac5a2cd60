from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_version_config_voice_provider import AgentVersionConfigVoiceProvider






T = TypeVar("T", bound="AgentVersionConfigVoice")



@_attrs_define
class AgentVersionConfigVoice:
    """ 
        Attributes:
            provider (AgentVersionConfigVoiceProvider): ConversationRelay's `ttsProvider`.
            voice_id (str): The provider's voice (ConversationRelay's `voice`), e.g. `en-US-Journey-O` or `Polly.Joanna-
                Neural`.
     """

    provider: AgentVersionConfigVoiceProvider
    voice_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        voice_id = self.voice_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "provider": provider,
            "voice_id": voice_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = AgentVersionConfigVoiceProvider(d.pop("provider"))




        voice_id = d.pop("voice_id")

        agent_version_config_voice = cls(
            provider=provider,
            voice_id=voice_id,
        )


        agent_version_config_voice.additional_properties = d
        return agent_version_config_voice

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
