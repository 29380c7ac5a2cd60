from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CreateBulkCallBodyScheduleWindow")



@_attrs_define
class CreateBulkCallBodyScheduleWindow:
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

        create_bulk_call_body_schedule_window = cls(
            start=start,
            end=end,
        )

        return create_bulk_call_body_schedule_window

