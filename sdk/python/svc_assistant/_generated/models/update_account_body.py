from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_account_body_redaction import UpdateAccountBodyRedaction
  from ..models.update_account_body_retention import UpdateAccountBodyRetention





T = TypeVar("T", bound="UpdateAccountBody")



@_attrs_define
class UpdateAccountBody:
    """ 
        Attributes:
            retention (UpdateAccountBodyRetention | Unset):
            redaction (UpdateAccountBodyRedaction | Unset):
     """

    retention: UpdateAccountBodyRetention | Unset = UNSET
    redaction: UpdateAccountBodyRedaction | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_account_body_redaction import UpdateAccountBodyRedaction # noqa: PLC0415
        from ..models.update_account_body_retention import UpdateAccountBodyRetention # noqa: PLC0415
        retention: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retention, Unset):
            retention = self.retention.to_dict()

        redaction: dict[str, Any] | Unset = UNSET
        if not isinstance(self.redaction, Unset):
            redaction = self.redaction.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if retention is not UNSET:
            field_dict["retention"] = retention
        if redaction is not UNSET:
            field_dict["redaction"] = redaction

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_account_body_redaction import UpdateAccountBodyRedaction # noqa: PLC0415
        from ..models.update_account_body_retention import UpdateAccountBodyRetention # noqa: PLC0415
        d = dict(src_dict)
        _retention = d.pop("retention", UNSET)
        retention: UpdateAccountBodyRetention | Unset
        if isinstance(_retention,  Unset):
            retention = UNSET
        else:
            retention = UpdateAccountBodyRetention.from_dict(_retention)




        _redaction = d.pop("redaction", UNSET)
        redaction: UpdateAccountBodyRedaction | Unset
        if isinstance(_redaction,  Unset):
            redaction = UNSET
        else:
            redaction = UpdateAccountBodyRedaction.from_dict(_redaction)




        update_account_body = cls(
            retention=retention,
            redaction=redaction,
        )

        return update_account_body

