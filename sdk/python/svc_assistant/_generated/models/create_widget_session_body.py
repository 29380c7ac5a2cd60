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
            identity (CreateWidgetSessionBodyIdentity | Unset): A verified visitor: the organization's server computes
                user_hash for its signed-in user.
     """

    visitor_id: str
    identity: CreateWidgetSessionBodyIdentity | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_widget_session_body_identity import CreateWidgetSessionBodyIdentity # noqa: PLC0415
        visitor_id = self.visitor_id

        identity: dict[str, Any] | Unset = UNSET
        if not isinstance(self.identity, Unset):
            identity = self.identity.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "visitor_id": visitor_id,
        })
        if identity is not UNSET:
            field_dict["identity"] = identity

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_widget_session_body_identity import CreateWidgetSessionBodyIdentity # noqa: PLC0415
        d = dict(src_dict)
        visitor_id = d.pop("visitor_id")

        _identity = d.pop("identity", UNSET)
        identity: CreateWidgetSessionBodyIdentity | Unset
        if isinstance(_identity,  Unset):
            identity = UNSET
        else:
            identity = CreateWidgetSessionBodyIdentity.from_dict(_identity)




        create_widget_session_body = cls(
            visitor_id=visitor_id,
            identity=identity,
        )

        return create_widget_session_body

