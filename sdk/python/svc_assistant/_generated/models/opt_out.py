from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.opt_out_channel import OptOutChannel
from ..models.opt_out_source import OptOutSource
from typing import cast






T = TypeVar("T", bound="OptOut")



@_attrs_define
class OptOut:
    """ The person asked not to be contacted on `channel`: calls (`voice`) or a messaging channel.

        Attributes:
            channel (OptOutChannel): `voice`: no call is dialed to the number (the contact is `do_not_call` and the number
                is on the do-not-call list); `sms`/`whatsapp`: no message is sent on that channel until the person sends START.
            source (OptOutSource): `opt_out_tool`: asked on a call; `sms_stop` / `whatsapp_stop`: a STOP word.
            created (int): Unix time in seconds.
            call_id (None | str): The call it was asked on, else null.
            conversation_id (None | str): The conversation the STOP came in, else null.
     """

    channel: OptOutChannel
    source: OptOutSource
    created: int
    call_id: None | str
    conversation_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        channel = self.channel.value

        source = self.source.value

        created = self.created

        call_id: None | str
        call_id = self.call_id

        conversation_id: None | str
        conversation_id = self.conversation_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "channel": channel,
            "source": source,
            "created": created,
            "call_id": call_id,
            "conversation_id": conversation_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        channel = OptOutChannel(d.pop("channel"))




        source = OptOutSource(d.pop("source"))




        created = d.pop("created")

        def _parse_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        call_id = _parse_call_id(d.pop("call_id"))


        def _parse_conversation_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        conversation_id = _parse_conversation_id(d.pop("conversation_id"))


        opt_out = cls(
            channel=channel,
            source=source,
            created=created,
            call_id=call_id,
            conversation_id=conversation_id,
        )


        opt_out.additional_properties = d
        return opt_out

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
