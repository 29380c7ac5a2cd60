from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioRecordingStatusBody")



@_attrs_define
class TwilioRecordingStatusBody:
    """ 
        Attributes:
            call_sid (str | Unset): The call's SID at Twilio (CA…).
            recording_sid (str | Unset): The recording's SID (RE…).
            recording_status (str | Unset): `completed` (other statuses are ignored).
            recording_duration (str | Unset): Length of the recording, seconds.
     """

    call_sid: str | Unset = UNSET
    recording_sid: str | Unset = UNSET
    recording_status: str | Unset = UNSET
    recording_duration: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        call_sid = self.call_sid

        recording_sid = self.recording_sid

        recording_status = self.recording_status

        recording_duration = self.recording_duration


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if recording_sid is not UNSET:
            field_dict["RecordingSid"] = recording_sid
        if recording_status is not UNSET:
            field_dict["RecordingStatus"] = recording_status
        if recording_duration is not UNSET:
            field_dict["RecordingDuration"] = recording_duration

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        call_sid = d.pop("CallSid", UNSET)

        recording_sid = d.pop("RecordingSid", UNSET)

        recording_status = d.pop("RecordingStatus", UNSET)

        recording_duration = d.pop("RecordingDuration", UNSET)

        twilio_recording_status_body = cls(
            call_sid=call_sid,
            recording_sid=recording_sid,
            recording_status=recording_status,
            recording_duration=recording_duration,
        )


        twilio_recording_status_body.additional_properties = d
        return twilio_recording_status_body

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
