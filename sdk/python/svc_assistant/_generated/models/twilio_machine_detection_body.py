from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioMachineDetectionBody")



@_attrs_define
class TwilioMachineDetectionBody:
    """ 
        Attributes:
            call_sid (str | Unset): The call's SID at Twilio.
            answered_by (str | Unset): human, machine_start, machine_end_beep, machine_end_silence, machine_end_other, fax
                or unknown.
            machine_detection_duration (str | Unset): How long detection took, ms.
     """

    call_sid: str | Unset = UNSET
    answered_by: str | Unset = UNSET
    machine_detection_duration: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        call_sid = self.call_sid

        answered_by = self.answered_by

        machine_detection_duration = self.machine_detection_duration


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if answered_by is not UNSET:
            field_dict["AnsweredBy"] = answered_by
        if machine_detection_duration is not UNSET:
            field_dict["MachineDetectionDuration"] = machine_detection_duration

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        call_sid = d.pop("CallSid", UNSET)

        answered_by = d.pop("AnsweredBy", UNSET)

        machine_detection_duration = d.pop("MachineDetectionDuration", UNSET)

        twilio_machine_detection_body = cls(
            call_sid=call_sid,
            answered_by=answered_by,
            machine_detection_duration=machine_detection_duration,
        )


        twilio_machine_detection_body.additional_properties = d
        return twilio_machine_detection_body

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
