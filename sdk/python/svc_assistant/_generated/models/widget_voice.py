from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.call import Call





T = TypeVar("T", bound="WidgetVoice")



@_attrs_define
class WidgetVoice:
    """ A browser voice call: the media room to join with `token` (valid at most 10 minutes), and the call it is.

        Attributes:
            object_ (Literal['widget_voice']):
            url (str): The LiveKit server URL (`wss://…`); a `.invalid` address for a simulated room.
            room (str):
            token (str): A LiveKit access token (JWT) for this room and visitor; opaque for a simulated room.
            expires_at (int): Unix time in seconds.
            call_id (str):
            simulated (bool):
            call (Call): A phone call placed by an assistant, live through Twilio or simulated with a test key.
     """

    object_: Literal['widget_voice']
    url: str
    room: str
    token: str
    expires_at: int
    call_id: str
    simulated: bool
    call: Call
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call import Call # noqa: PLC0415
        object_ = self.object_

        url = self.url

        room = self.room

        token = self.token

        expires_at = self.expires_at

        call_id = self.call_id

        simulated = self.simulated

        call = self.call.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "url": url,
            "room": room,
            "token": token,
            "expires_at": expires_at,
            "call_id": call_id,
            "simulated": simulated,
            "call": call,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call import Call # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['widget_voice'] , d.pop("object"))
        if object_ != 'widget_voice':
            raise ValueError(f"object must match const 'widget_voice', got '{object_}'")

        url = d.pop("url")

        room = d.pop("room")

        token = d.pop("token")

        expires_at = d.pop("expires_at")

        call_id = d.pop("call_id")

        simulated = d.pop("simulated")

        call = Call.from_dict(d.pop("call"))




        widget_voice = cls(
            object_=object_,
            url=url,
            room=room,
            token=token,
            expires_at=expires_at,
            call_id=call_id,
            simulated=simulated,
            call=call,
        )


        widget_voice.additional_properties = d
        return widget_voice

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
