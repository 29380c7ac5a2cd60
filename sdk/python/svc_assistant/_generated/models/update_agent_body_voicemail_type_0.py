from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_agent_body_voicemail_type_0_action import UpdateAgentBodyVoicemailType0Action
from ..models.update_agent_body_voicemail_type_0_leave_message_on import UpdateAgentBodyVoicemailType0LeaveMessageOn
from ..types import UNSET, Unset






T = TypeVar("T", bound="UpdateAgentBodyVoicemailType0")



@_attrs_define
class UpdateAgentBodyVoicemailType0:
    """ 
        Attributes:
            detection (bool): Ask Twilio's answering-machine detection on live outbound calls.
            action (UpdateAgentBodyVoicemailType0Action | Unset): On a machine: `hang_up` at once, or `leave_message`
                (spoken once after the beep), then the call ends. Default: UpdateAgentBodyVoicemailType0Action.HANG_UP.
            message (str | Unset): What `leave_message` says after the beep; required with it.
            leave_message_on (UpdateAgentBodyVoicemailType0LeaveMessageOn | Unset): Campaigns: `last_attempt` leaves the
                message only on an attempt the campaign would not redial on voicemail; earlier attempts hang up.
     """

    detection: bool
    action: UpdateAgentBodyVoicemailType0Action | Unset = UpdateAgentBodyVoicemailType0Action.HANG_UP
    message: str | Unset = UNSET
    leave_message_on: UpdateAgentBodyVoicemailType0LeaveMessageOn | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        detection = self.detection

        action: str | Unset = UNSET
        if not isinstance(self.action, Unset):
            action = self.action.value


        message = self.message

        leave_message_on: str | Unset = UNSET
        if not isinstance(self.leave_message_on, Unset):
            leave_message_on = self.leave_message_on.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "detection": detection,
        })
        if action is not UNSET:
            field_dict["action"] = action
        if message is not UNSET:
            field_dict["message"] = message
        if leave_message_on is not UNSET:
            field_dict["leave_message_on"] = leave_message_on

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        detection = d.pop("detection")

        _action = d.pop("action", UNSET)
        action: UpdateAgentBodyVoicemailType0Action | Unset
        if isinstance(_action,  Unset):
            action = UNSET
        else:
            action = UpdateAgentBodyVoicemailType0Action(_action)




        message = d.pop("message", UNSET)

        _leave_message_on = d.pop("leave_message_on", UNSET)
        leave_message_on: UpdateAgentBodyVoicemailType0LeaveMessageOn | Unset
        if isinstance(_leave_message_on,  Unset):
            leave_message_on = UNSET
        else:
            leave_message_on = UpdateAgentBodyVoicemailType0LeaveMessageOn(_leave_message_on)




        update_agent_body_voicemail_type_0 = cls(
            detection=detection,
            action=action,
            message=message,
            leave_message_on=leave_message_on,
        )

        return update_agent_body_voicemail_type_0

