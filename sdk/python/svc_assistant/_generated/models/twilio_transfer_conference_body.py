from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioTransferConferenceBody")



@_attrs_define
class TwilioTransferConferenceBody:
    """ 
        Attributes:
            status_callback_event (str | Unset): participant-join, participant-leave, conference-start, conference-end, …
            call_sid (str | Unset): The participant whose event it is (CA…).
            conference_sid (str | Unset): The conference's SID (CF…).
            friendly_name (str | Unset): The conference's name (`transfer-{call id}`).
     """

    status_callback_event: str | Unset = UNSET
    call_sid: str | Unset = UNSET
    conference_sid: str | Unset = UNSET
    friendly_name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        status_callback_event = self.status_callback_event

        call_sid = self.call_sid

        conference_sid = self.conference_sid

        friendly_name = self.friendly_name


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if status_callback_event is not UNSET:
            field_dict["StatusCallbackEvent"] = status_callback_event
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if conference_sid is not UNSET:
            field_dict["ConferenceSid"] = conference_sid
        if friendly_name is not UNSET:
            field_dict["FriendlyName"] = friendly_name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status_callback_event = d.pop("StatusCallbackEvent", UNSET)

        call_sid = d.pop("CallSid", UNSET)

        conference_sid = d.pop("ConferenceSid", UNSET)

        friendly_name = d.pop("FriendlyName", UNSET)

        twilio_transfer_conference_body = cls(
            status_callback_event=status_callback_event,
            call_sid=call_sid,
            conference_sid=conference_sid,
            friendly_name=friendly_name,
        )


        twilio_transfer_conference_body.additional_properties = d
        return twilio_transfer_conference_body

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
