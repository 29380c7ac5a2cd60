from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AgentVersionConfigCallingWindow")



@_attrs_define
class AgentVersionConfigCallingWindow:
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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        start = self.start

        end = self.end

        days: list[str] | Unset = UNSET
        if not isinstance(self.days, Unset):
            days = self.days



        timezone = self.timezone


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        agent_version_config_calling_window = cls(
            start=start,
            end=end,
            days=days,
            timezone=timezone,
        )


        agent_version_config_calling_window.additional_properties = d
        return agent_version_config_calling_window

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
