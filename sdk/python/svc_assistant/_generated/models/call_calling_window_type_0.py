from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CallCallingWindowType0")



@_attrs_define
class CallCallingWindowType0:
    """ 
        Attributes:
            start (str): Local opening time, `HH:MM`.
            end (str): Local closing time, `HH:MM` (`24:00` for midnight).
            days (list[str] | Unset): Days it opens (`sun`…`sat`); absent: every day.
            timezone (str | Unset): IANA zone; absent: the callee's, from the number's region.
     """

    start: str
    end: str
    days: list[str] | Unset = UNSET
    timezone: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        start = self.start

        end = self.end

        days: list[str] | Unset = UNSET
        if not isinstance(self.days, Unset):
            days = self.days



        timezone = self.timezone


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "start": start,
            "end": end,
        })
        if days is not UNSET:
            field_dict["days"] = days
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        start = d.pop("start")

        end = d.pop("end")

        days = cast(list[str], d.pop("days", UNSET))


        timezone = d.pop("timezone", UNSET)

        call_calling_window_type_0 = cls(
            start=start,
            end=end,
            days=days,
            timezone=timezone,
        )

        return call_calling_window_type_0

