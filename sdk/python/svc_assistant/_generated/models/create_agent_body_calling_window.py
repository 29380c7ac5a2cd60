from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_agent_body_calling_window_days_item import CreateAgentBodyCallingWindowDaysItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateAgentBodyCallingWindow")



@_attrs_define
class CreateAgentBodyCallingWindow:
    """ When the agent's scheduled calls and promised callbacks may ring (local time of the callee); a time outside it moves
    to its next opening.

        Attributes:
            start (str):
            end (str):
            days (list[CreateAgentBodyCallingWindowDaysItem] | Unset):
            timezone (str | Unset):
     """

    start: str
    end: str
    days: list[CreateAgentBodyCallingWindowDaysItem] | Unset = UNSET
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
        days: list[CreateAgentBodyCallingWindowDaysItem] | Unset = UNSET
        if _days is not UNSET:
            days = []
            for days_item_data in _days:
                days_item = CreateAgentBodyCallingWindowDaysItem(days_item_data)



                days.append(days_item)


        timezone = d.pop("timezone", UNSET)

        create_agent_body_calling_window = cls(
            start=start,
            end=end,
            days=days,
            timezone=timezone,
        )

        return create_agent_body_calling_window

