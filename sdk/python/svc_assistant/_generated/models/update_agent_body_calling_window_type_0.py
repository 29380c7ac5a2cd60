from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_agent_body_calling_window_type_0_days_item import UpdateAgentBodyCallingWindowType0DaysItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateAgentBodyCallingWindowType0")



@_attrs_define
class UpdateAgentBodyCallingWindowType0:
    """ Local times the call may ring, in the callee's time zone (`timezone`, else the number's region), daylight-saving
    aware.

        Attributes:
            start (str):
            end (str):
            days (list[UpdateAgentBodyCallingWindowType0DaysItem] | Unset):
            timezone (str | Unset):
     """

    start: str
    end: str
    days: list[UpdateAgentBodyCallingWindowType0DaysItem] | Unset = UNSET
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
        days: list[UpdateAgentBodyCallingWindowType0DaysItem] | Unset = UNSET
        if _days is not UNSET:
            days = []
            for days_item_data in _days:
                days_item = UpdateAgentBodyCallingWindowType0DaysItem(days_item_data)



                days.append(days_item)


        timezone = d.pop("timezone", UNSET)

        update_agent_body_calling_window_type_0 = cls(
            start=start,
            end=end,
            days=days,
            timezone=timezone,
        )

        return update_agent_body_calling_window_type_0

