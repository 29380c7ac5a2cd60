from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bulk_call_schedule_window import BulkCallScheduleWindow





T = TypeVar("T", bound="BulkCallSchedule")



@_attrs_define
class BulkCallSchedule:
    """ 
        Attributes:
            window (BulkCallScheduleWindow):
            days (list[str]): Days it calls (`sun`…`sat`).
            timezone (str | Unset): IANA zone; absent: each contact's, from the number's region.
            ends_at (int | Unset): When the campaign stops dialing; its pending contacts end as `window_expired`.
     """

    window: BulkCallScheduleWindow
    days: list[str]
    timezone: str | Unset = UNSET
    ends_at: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_call_schedule_window import BulkCallScheduleWindow # noqa: PLC0415
        window = self.window.to_dict()

        days = self.days



        timezone = self.timezone

        ends_at = self.ends_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "window": window,
            "days": days,
        })
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_call_schedule_window import BulkCallScheduleWindow # noqa: PLC0415
        d = dict(src_dict)
        window = BulkCallScheduleWindow.from_dict(d.pop("window"))




        days = cast(list[str], d.pop("days"))


        timezone = d.pop("timezone", UNSET)

        ends_at = d.pop("ends_at", UNSET)

        bulk_call_schedule = cls(
            window=window,
            days=days,
            timezone=timezone,
            ends_at=ends_at,
        )


        bulk_call_schedule.additional_properties = d
        return bulk_call_schedule

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
