from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.message_author import MessageAuthor
from ..models.message_channel import MessageChannel
from ..models.message_direction import MessageDirection
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.message_error import MessageError
  from ..models.message_template_details import MessageTemplateDetails
  from ..models.message_tool_calls_item import MessageToolCallsItem
  from ..models.redaction import Redaction





T = TypeVar("T", bound="Message")



@_attrs_define
class Message:
    """ A WhatsApp, SMS or web-widget message, received or sent.

        Attributes:
            id (str):
            object_ (Literal['message']):
            livemode (bool):
            conversation_id (str):
            channel (MessageChannel):
            direction (MessageDirection):
            from_ (str):
            to (str):
            text (str):
            template (MessageTemplateDetails | None):
            author (MessageAuthor):
            user_id (None | str): A `person` reply written in the staff console: the staff user (`usr_…`); null otherwise.
            status (str):
            error (MessageError | None):
            created (int): Unix time in seconds.
            tool_calls (list[MessageToolCallsItem] | Unset): An assistant reply: the tool calls the assistant made before
                writing it, in order. A customer message the assistant answered with tool calls and no text after them (a hand-
                over, say): those tool calls.
            redaction (Redaction | Unset): What was replaced before the text was stored (the organization's
                `redaction.enabled`): counts by kind of the `[card]`, `[ssn]`, `[email]` and `[phone]` placeholders. Absent when
                nothing was.
     """

    id: str
    object_: Literal['message']
    livemode: bool
    conversation_id: str
    channel: MessageChannel
    direction: MessageDirection
    from_: str
    to: str
    text: str
    template: MessageTemplateDetails | None
    author: MessageAuthor
    user_id: None | str
    status: str
    error: MessageError | None
    created: int
    tool_calls: list[MessageToolCallsItem] | Unset = UNSET
    redaction: Redaction | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.message_error import MessageError # noqa: PLC0415
        from ..models.message_template_details import MessageTemplateDetails # noqa: PLC0415
        from ..models.message_tool_calls_item import MessageToolCallsItem # noqa: PLC0415
        from ..models.redaction import Redaction # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        conversation_id = self.conversation_id

        channel = self.channel.value

        direction = self.direction.value

        from_ = self.from_

        to = self.to

        text = self.text

        template: dict[str, Any] | None
        if isinstance(self.template, MessageTemplateDetails):
            template = self.template.to_dict()
        else:
            template = self.template

        author = self.author.value

        user_id: None | str
        user_id = self.user_id

        status = self.status

        error: dict[str, Any] | None
        if isinstance(self.error, MessageError):
            error = self.error.to_dict()
        else:
            error = self.error

        created = self.created

        tool_calls: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tool_calls, Unset):
            tool_calls = []
            for tool_calls_item_data in self.tool_calls:
                tool_calls_item = tool_calls_item_data.to_dict()
                tool_calls.append(tool_calls_item)



        redaction: dict[str, Any] | Unset = UNSET
        if not isinstance(self.redaction, Unset):
            redaction = self.redaction.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "conversation_id": conversation_id,
            "channel": channel,
            "direction": direction,
            "from": from_,
            "to": to,
            "text": text,
            "template": template,
            "author": author,
            "user_id": user_id,
            "status": status,
            "error": error,
            "created": created,
        })
        if tool_calls is not UNSET:
            field_dict["tool_calls"] = tool_calls
        if redaction is not UNSET:
            field_dict["redaction"] = redaction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.message_error import MessageError # noqa: PLC0415
        from ..models.message_template_details import MessageTemplateDetails # noqa: PLC0415
        from ..models.message_tool_calls_item import MessageToolCallsItem # noqa: PLC0415
        from ..models.redaction import Redaction # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['message'] , d.pop("object"))
        if object_ != 'message':
            raise ValueError(f"object must match const 'message', got '{object_}'")

        livemode = d.pop("livemode")

        conversation_id = d.pop("conversation_id")

        channel = MessageChannel(d.pop("channel"))




        direction = MessageDirection(d.pop("direction"))




        from_ = d.pop("from")

        to = d.pop("to")

        text = d.pop("text")

        def _parse_template(data: object) -> MessageTemplateDetails | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                template_type_0 = MessageTemplateDetails.from_dict(data)



                return template_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageTemplateDetails | None, data)

        template = _parse_template(d.pop("template"))


        author = MessageAuthor(d.pop("author"))




        def _parse_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_id = _parse_user_id(d.pop("user_id"))


        status = d.pop("status")

        def _parse_error(data: object) -> MessageError | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = MessageError.from_dict(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MessageError | None, data)

        error = _parse_error(d.pop("error"))


        created = d.pop("created")

        _tool_calls = d.pop("tool_calls", UNSET)
        tool_calls: list[MessageToolCallsItem] | Unset = UNSET
        if _tool_calls is not UNSET:
            tool_calls = []
            for tool_calls_item_data in _tool_calls:
                tool_calls_item = MessageToolCallsItem.from_dict(tool_calls_item_data)



                tool_calls.append(tool_calls_item)


        _redaction = d.pop("redaction", UNSET)
        redaction: Redaction | Unset
        if isinstance(_redaction,  Unset):
            redaction = UNSET
        else:
            redaction = Redaction.from_dict(_redaction)




        message = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            conversation_id=conversation_id,
            channel=channel,
            direction=direction,
            from_=from_,
            to=to,
            text=text,
            template=template,
            author=author,
            user_id=user_id,
            status=status,
            error=error,
            created=created,
            tool_calls=tool_calls,
            redaction=redaction,
        )


        message.additional_properties = d
        return message

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
