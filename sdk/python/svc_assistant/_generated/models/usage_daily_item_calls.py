from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.usage_daily_item_calls_by_status import UsageDailyItemCallsByStatus





T = TypeVar("T", bound="UsageDailyItemCalls")



@_attrs_define
class UsageDailyItemCalls:
    """ 
        Attributes:
            count (int):
            answered (int):
            by_status (UsageDailyItemCallsByStatus):
            talk_seconds (int):
            billable_minutes (int):
     """

    count: int
    answered: int
    by_status: UsageDailyItemCallsByStatus
    talk_seconds: int
    billable_minutes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_daily_item_calls_by_status import UsageDailyItemCallsByStatus # noqa: PLC0415
        count = self.count

        answered = self.answered

        by_status = self.by_status.to_dict()

        talk_seconds = self.talk_seconds

        billable_minutes = self.billable_minutes


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "answered": answered,
            "by_status": by_status,
            "talk_seconds": talk_seconds,
            "billable_minutes": billable_minutes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_daily_item_calls_by_status import UsageDailyItemCallsByStatus # noqa: PLC0415
        d = dict(src_dict)
        count = d.pop("count")

        answered = d.pop("answered")

        by_status = UsageDailyItemCallsByStatus.from_dict(d.pop("by_status"))




        talk_seconds = d.pop("talk_seconds")

        billable_minutes = d.pop("billable_minutes")

        usage_daily_item_calls = cls(
            count=count,
            answered=answered,
            by_status=by_status,
            talk_seconds=talk_seconds,
            billable_minutes=billable_minutes,
        )


        usage_daily_item_calls.additional_properties = d
        return usage_daily_item_calls

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
