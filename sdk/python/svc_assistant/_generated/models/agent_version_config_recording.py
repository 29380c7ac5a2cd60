from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="AgentVersionConfigRecording")



@_attrs_define
class AgentVersionConfigRecording:
    """ 
        Attributes:
            enabled (bool): Record the call: both parties, two channels (caller left, assistant right).
            notice (str | Unset): Said before the greeting (`first_message`) and kept in the transcript, e.g. "This call is
                recorded."
     """

    enabled: bool
    notice: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        notice = self.notice


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "enabled": enabled,
        })
        if notice is not UNSET:
            field_dict["notice"] = notice

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        notice = d.pop("notice", UNSET)

        agent_version_config_recording = cls(
            enabled=enabled,
            notice=notice,
        )


        agent_version_config_recording.additional_properties = d
        return agent_version_config_recording

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
