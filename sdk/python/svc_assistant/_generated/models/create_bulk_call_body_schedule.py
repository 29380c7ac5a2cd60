from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_bulk_call_body_schedule_days_item import CreateBulkCallBodyScheduleDaysItem
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_bulk_call_body_schedule_window import CreateBulkCallBodyScheduleWindow





T = TypeVar("T", bound="CreateBulkCallBodySchedule")



@_attrs_define
class CreateBulkCallBodySchedule:
    """ 
        Attributes:
            window (CreateBulkCallBodyScheduleWindow):
            days (list[CreateBulkCallBodyScheduleDaysItem] | Unset):
            timezone (str | Unset):
            ends_at (int | Unset):
     """

    window: CreateBulkCallBodyScheduleWindow
    days: list[CreateBulkCallBodyScheduleDaysItem] | Unset = UNSET
    timezone: str | Unset = UNSET
    ends_at: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_bulk_call_body_schedule_window import CreateBulkCallBodyScheduleWindow # noqa: PLC0415
        window = self.window.to_dict()

        days: list[str] | Unset = UNSET
        if not isinstance(self.days, Unset):
            days = []
            for days_item_data in self.days:
                days_item = days_item_data.value
                days.append(days_item)



        timezone = self.timezone

        ends_at = self.ends_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "window": window,
        })
        if days is not UNSET:
            field_dict["days"] = days
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_bulk_call_body_schedule_window import CreateBulkCallBodyScheduleWindow # noqa: PLC0415
        d = dict(src_dict)
        window = CreateBulkCallBodyScheduleWindow.from_dict(d.pop("window"))




        _days = d.pop("days", UNSET)
        days: list[CreateBulkCallBodyScheduleDaysItem] | Unset = UNSET
        if _days is not UNSET:
            days = []
            for days_item_data in _days:
                days_item = CreateBulkCallBodyScheduleDaysItem(days_item_data)



                days.append(days_item)


        timezone = d.pop("timezone", UNSET)

        ends_at = d.pop("ends_at", UNSET)

        create_bulk_call_body_schedule = cls(
            window=window,
            days=days,
            timezone=timezone,
            ends_at=ends_at,
        )

        return create_bulk_call_body_schedule

