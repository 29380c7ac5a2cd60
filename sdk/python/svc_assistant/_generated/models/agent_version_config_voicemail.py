from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_version_config_voicemail_action import AgentVersionConfigVoicemailAction
from ..models.agent_version_config_voicemail_leave_message_on import AgentVersionConfigVoicemailLeaveMessageOn
from ..types import UNSET, Unset






T = TypeVar("T", bound="AgentVersionConfigVoicemail")



@_attrs_define
class AgentVersionConfigVoicemail:
    """ 
        Attributes:
            detection (bool): Ask Twilio's answering-machine detection on live outbound calls.
            action (AgentVersionConfigVoicemailAction): On a machine: `hang_up` at once, or `leave_message` (spoken once
                after the beep), then the call ends.
            message (str | Unset): What `leave_message` says after the beep.
            leave_message_on (AgentVersionConfigVoicemailLeaveMessageOn | Unset): Campaigns: `last_attempt` leaves the
                message only when voicemail would not be redialed; earlier attempts hang up.
     """

    detection: bool
    action: AgentVersionConfigVoicemailAction
    message: str | Unset = UNSET
    leave_message_on: AgentVersionConfigVoicemailLeaveMessageOn | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        detection = self.detection

        action = self.action.value

        message = self.message

        leave_message_on: str | Unset = UNSET
        if not isinstance(self.leave_message_on, Unset):
            leave_message_on = self.leave_message_on.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "detection": detection,
            "action": action,
        })
        if message is not UNSET:
            field_dict["message"] = message
        if leave_message_on is not UNSET:
            field_dict["leave_message_on"] = leave_message_on

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        detection = d.pop("detection")

        action = AgentVersionConfigVoicemailAction(d.pop("action"))




        message = d.pop("message", UNSET)

        _leave_message_on = d.pop("leave_message_on", UNSET)
        leave_message_on: AgentVersionConfigVoicemailLeaveMessageOn | Unset
        if isinstance(_leave_message_on,  Unset):
            leave_message_on = UNSET
        else:
            leave_message_on = AgentVersionConfigVoicemailLeaveMessageOn(_leave_message_on)




        agent_version_config_voicemail = cls(
            detection=detection,
            action=action,
            message=message,
            leave_message_on=leave_message_on,
        )


        agent_version_config_voicemail.additional_properties = d
        return agent_version_config_voicemail

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
