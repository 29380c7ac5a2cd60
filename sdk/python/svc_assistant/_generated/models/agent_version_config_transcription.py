from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_version_config_transcription_provider import AgentVersionConfigTranscriptionProvider
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AgentVersionConfigTranscription")



@_attrs_define
class AgentVersionConfigTranscription:
    """ 
        Attributes:
            provider (AgentVersionConfigTranscriptionProvider): ConversationRelay's `transcriptionProvider`.
            hints (list[str] | Unset): Words and phrases to recognize better (product names, jargon): ConversationRelay
                `hints`.
     """

    provider: AgentVersionConfigTranscriptionProvider
    hints: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        provider = self.provider.value

        hints: list[str] | Unset = UNSET
        if not isinstance(self.hints, Unset):
            hints = self.hints




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "provider": provider,
        })
        if hints is not UNSET:
            field_dict["hints"] = hints

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        provider = AgentVersionConfigTranscriptionProvider(d.pop("provider"))




        hints = cast(list[str], d.pop("hints", UNSET))


        agent_version_config_transcription = cls(
            provider=provider,
            hints=hints,
        )


        agent_version_config_transcription.additional_properties = d
        return agent_version_config_transcription

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
