from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UpdateAccountBodyCallingHoursType0")



@_attrs_define
class UpdateAccountBodyCallingHoursType0:
    """ 
        Attributes:
            start (str):
            end (str):
     """

    start: str
    end: str





    def to_dict(self) -> dict[str, Any]:
        start = self.start

        end = self.end


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "start": start,
            "end": end,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        start = d.pop("start")

        end = d.pop("end")

        update_account_body_calling_hours_type_0 = cls(
            start=start,
            end=end,
        )

        return update_account_body_calling_hours_type_0

