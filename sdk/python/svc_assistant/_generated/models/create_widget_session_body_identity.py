from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CreateWidgetSessionBodyIdentity")



@_attrs_define
class CreateWidgetSessionBodyIdentity:
    """ A verified visitor: the organization's server computes user_hash for its signed-in user.

        Attributes:
            user_id (str):
            user_hash (str):
     """

    user_id: str
    user_hash: str





    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        user_hash = self.user_hash


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "user_id": user_id,
            "user_hash": user_hash,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        user_hash = d.pop("user_hash")

        create_widget_session_body_identity = cls(
            user_id=user_id,
            user_hash=user_hash,
        )

        return create_widget_session_body_identity

