from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.send_message_body_channel import SendMessageBodyChannel
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.send_message_body_template import SendMessageBodyTemplate





T = TypeVar("T", bound="SendMessageBody")



@_attrs_define
class SendMessageBody:
    """ 
        Attributes:
            channel (SendMessageBodyChannel):
            to (str):
            text (str | Unset):
            template (SendMessageBodyTemplate | Unset):
            agent_id (str | Unset):
     """

    channel: SendMessageBodyChannel
    to: str
    text: str | Unset = UNSET
    template: SendMessageBodyTemplate | Unset = UNSET
    agent_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.send_message_body_template import SendMessageBodyTemplate # noqa: PLC0415
        channel = self.channel.value

        to: str
        to = self.to

        text = self.text

        template: dict[str, Any] | Unset = UNSET
        if not isinstance(self.template, Unset):
            template = self.template.to_dict()

        agent_id = self.agent_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "channel": channel,
            "to": to,
        })
        if text is not UNSET:
            field_dict["text"] = text
        if template is not UNSET:
            field_dict["template"] = template
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.send_message_body_template import SendMessageBodyTemplate # noqa: PLC0415
        d = dict(src_dict)
        channel = SendMessageBodyChannel(d.pop("channel"))




        def _parse_to(data: object) -> str:
            return cast(str, data)

        to = _parse_to(d.pop("to"))


        text = d.pop("text", UNSET)

        _template = d.pop("template", UNSET)
        template: SendMessageBodyTemplate | Unset
        if isinstance(_template,  Unset):
            template = UNSET
        else:
            template = SendMessageBodyTemplate.from_dict(_template)




        agent_id = d.pop("agent_id", UNSET)

        send_message_body = cls(
            channel=channel,
            to=to,
            text=text,
            template=template,
            agent_id=agent_id,
        )

        return send_message_body

