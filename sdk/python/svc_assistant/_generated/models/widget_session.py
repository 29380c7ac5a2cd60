from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="WidgetSession")



@_attrs_define
class WidgetSession:
    """ A browser widget's session: its `token` (only in the answer that opens it; valid 24 hours) authenticates the
    widget's messages, stream and voice.

        Attributes:
            id (str):
            object_ (Literal['widget_session']):
            livemode (bool):
            expires_at (int): Unix time in seconds.
            visitor_id (str):
            verified (bool): True when `identity` verified: the session carries `user_id`.
            user_id (None | str):
            conversation_id (str): The `web` conversation: the user's (verified) or this visitor's.
            greeting (None | str): The answering agent's `first_message`, which the widget shows when its panel opens (no
                model request); null when the agent has none, or no agent answers.
            created (int): Unix time in seconds.
            token (str | Unset): `wses_…_secret_…`; shown once, stored hashed.
     """

    id: str
    object_: Literal['widget_session']
    livemode: bool
    expires_at: int
    visitor_id: str
    verified: bool
    user_id: None | str
    conversation_id: str
    greeting: None | str
    created: int
    token: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        expires_at = self.expires_at

        visitor_id = self.visitor_id

        verified = self.verified

        user_id: None | str
        user_id = self.user_id

        conversation_id = self.conversation_id

        greeting: None | str
        greeting = self.greeting

        created = self.created

        token = self.token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "expires_at": expires_at,
            "visitor_id": visitor_id,
            "verified": verified,
            "user_id": user_id,
            "conversation_id": conversation_id,
            "greeting": greeting,
            "created": created,
        })
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['widget_session'] , d.pop("object"))
        if object_ != 'widget_session':
            raise ValueError(f"object must match const 'widget_session', got '{object_}'")

        livemode = d.pop("livemode")

        expires_at = d.pop("expires_at")

        visitor_id = d.pop("visitor_id")

        verified = d.pop("verified")

        def _parse_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_id = _parse_user_id(d.pop("user_id"))


        conversation_id = d.pop("conversation_id")

        def _parse_greeting(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        greeting = _parse_greeting(d.pop("greeting"))


        created = d.pop("created")

        token = d.pop("token", UNSET)

        widget_session = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            expires_at=expires_at,
            visitor_id=visitor_id,
            verified=verified,
            user_id=user_id,
            conversation_id=conversation_id,
            greeting=greeting,
            created=created,
            token=token,
        )


        widget_session.additional_properties = d
        return widget_session

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
