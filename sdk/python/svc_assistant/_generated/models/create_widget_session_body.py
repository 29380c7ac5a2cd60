from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_widget_session_body_identity import CreateWidgetSessionBodyIdentity





T = TypeVar("T", bound="CreateWidgetSessionBody")



@_attrs_define
class CreateWidgetSessionBody:
    """ 
        Attributes:
            visitor_id (str): A stable id of this browser, chosen by the page (e.g. a random id kept in localStorage).
            previous_token (str | Unset): The token of this browser's earlier session (expired or not). Without it, a
                visitor_id whose conversation exists gets a new conversation: knowing a visitor_id never shows that visitor's
                conversation. Not needed with a verified identity.
            identity (CreateWidgetSessionBodyIdentity | Unset): A verified visitor: the organization's server computes
                user_hash for its signed-in user.
     """

    visitor_id: str
    previous_token: str | Unset = UNSET
    identity: CreateWidgetSessionBodyIdentity | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_widget_session_body_identity import CreateWidgetSessionBodyIdentity # noqa: PLC0415
        visitor_id = self.visitor_id

        previous_token = self.previous_token

        identity: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identity, Unset):
            identity = self.identity.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "visitor_id": visitor_id,
        })
        if previous_token is not UNSET:
            field_dict["previous_token"] = previous_token
        if identity is not UNSET:
            field_dict["identity"] = identity

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_widget_session_body_identity import CreateWidgetSessionBodyIdentity # noqa: PLC0415
        d = dict(src_dict)
        visitor_id = d.pop("visitor_id")

        previous_token = d.pop("previous_token", UNSET)

        _identity = d.pop("identity", UNSET)
        identity: CreateWidgetSessionBodyIdentity | Unset
        if isinstance(_identity,  Unset):
            identity = UNSET
        else:
            identity = CreateWidgetSessionBodyIdentity.from_dict(_identity)




        create_widget_session_body = cls(
            visitor_id=visitor_id,
            previous_token=previous_token,
            identity=identity,
        )

        return create_widget_session_body

