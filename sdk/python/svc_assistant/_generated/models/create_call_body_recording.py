from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateCallBodyRecording")



@_attrs_define
class CreateCallBodyRecording:
    """ Record this call, instead of the agent's `recording`; `GET /v1/calls/{id}/recording` once ready.

        Attributes:
            enabled (bool): Record the call: both parties, two channels (caller left, assistant right).
            notice (str | Unset): Said before the greeting (`first_message`) and kept in the transcript, e.g. "This call is
                recorded."
     """

    enabled: bool
    notice: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        notice = self.notice


        field_dict: dict[str, Any] = {}

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

        create_call_body_recording = cls(
            enabled=enabled,
            notice=notice,
        )

        return create_call_body_recording

