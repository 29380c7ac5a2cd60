from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_voicemail_type_0_action import AgentVoicemailType0Action
from ..models.agent_voicemail_type_0_leave_message_on import AgentVoicemailType0LeaveMessageOn
from ..types import UNSET, Unset






T = TypeVar("T", bound="AgentVoicemailType0")



@_attrs_define
class AgentVoicemailType0:
    """ What a call does when an answering machine picks up (`end_reason: "voicemail"`, `answered_by: "machine"`).

        Attributes:
            detection (bool): Ask Twilio's answering-machine detection on live outbound calls.
            action (AgentVoicemailType0Action): On a machine: `hang_up` at once, or `leave_message` (spoken once after the
                beep), then the call ends.
            message (str | Unset): What `leave_message` says after the beep.
            leave_message_on (AgentVoicemailType0LeaveMessageOn | Unset): Campaigns: `last_attempt` leaves the message only
                when voicemail would not be redialed; earlier attempts hang up.
     """

    detection: bool
    action: AgentVoicemailType0Action
    message: str | Unset = UNSET
    leave_message_on: AgentVoicemailType0LeaveMessageOn | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        detection = self.detection

        action = self.action.value

        message = self.message

        leave_message_on: str | Unset = UNSET
        if not isinstance(self.leave_message_on, Unset):
            leave_message_on = self.leave_message_on.value



        field_dict: dict[str, Any] = {}

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

        action = AgentVoicemailType0Action(d.pop("action"))




        message = d.pop("message", UNSET)

        _leave_message_on = d.pop("leave_message_on", UNSET)
        leave_message_on: AgentVoicemailType0LeaveMessageOn | Unset
        if isinstance(_leave_message_on,  Unset):
            leave_message_on = UNSET
        else:
            leave_message_on = AgentVoicemailType0LeaveMessageOn(_leave_message_on)




        agent_voicemail_type_0 = cls(
            detection=detection,
            action=action,
            message=message,
            leave_message_on=leave_message_on,
        )

        return agent_voicemail_type_0

