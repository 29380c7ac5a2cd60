from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_call_body_calling_window_days_item import CreateCallBodyCallingWindowDaysItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateCallBodyCallingWindow")



@_attrs_define
class CreateCallBodyCallingWindow:
    """ Local times the call may ring in the callee's zone: a time outside it (or now, without `scheduled_at`) moves to its
    next opening. Default for a scheduled call: the agent's window, else 08:00–21:00 for a live +1 number.

        Attributes:
            start (str):
            end (str):
            days (list[CreateCallBodyCallingWindowDaysItem] | Unset):
            timezone (str | Unset):
     """

    start: str
    end: str
    days: list[CreateCallBodyCallingWindowDaysItem] | Unset = UNSET
    timezone: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        start = self.start

        end = self.end

        days: list[str] | Unset = UNSET
        if not isinstance(self.days, Unset):
            days = []
            for days_item_data in self.days:
                days_item = days_item_data.value
                days.append(days_item)



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

        _days = d.pop("days", UNSET)
        days: list[CreateCallBodyCallingWindowDaysItem] | Unset = UNSET
        if _days is not UNSET:
            days = []
            for days_item_data in _days:
                days_item = CreateCallBodyCallingWindowDaysItem(days_item_data)



                days.append(days_item)


        timezone = d.pop("timezone", UNSET)

        create_call_body_calling_window = cls(
            start=start,
            end=end,
            days=days,
            timezone=timezone,
        )

        return create_call_body_calling_window

