from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="AccountRetention")



@_attrs_define
class AccountRetention:
    """ 
        Attributes:
            transcripts_days (int | None): Days the mode's transcripts are kept from their creation; null: for ever.
            messages_days (int | None): Days the mode's messages are kept from their creation; null: for ever.
            recordings_days (int | None): Days the mode's recordings are kept from their creation; null: for ever.
            analyses_days (int | None): Days the mode's analyses are kept from their creation; null: for ever.
            events_days (int | None): Days the mode's events are kept from their creation; null: for ever.
     """

    transcripts_days: int | None
    messages_days: int | None
    recordings_days: int | None
    analyses_days: int | None
    events_days: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        transcripts_days: int | None
        transcripts_days = self.transcripts_days

        messages_days: int | None
        messages_days = self.messages_days

        recordings_days: int | None
        recordings_days = self.recordings_days

        analyses_days: int | None
        analyses_days = self.analyses_days

        events_days: int | None
        events_days = self.events_days


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "transcripts_days": transcripts_days,
            "messages_days": messages_days,
            "recordings_days": recordings_days,
            "analyses_days": analyses_days,
            "events_days": events_days,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_transcripts_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        transcripts_days = _parse_transcripts_days(d.pop("transcripts_days"))


        def _parse_messages_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        messages_days = _parse_messages_days(d.pop("messages_days"))


        def _parse_recordings_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        recordings_days = _parse_recordings_days(d.pop("recordings_days"))


        def _parse_analyses_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        analyses_days = _parse_analyses_days(d.pop("analyses_days"))


        def _parse_events_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        events_days = _parse_events_days(d.pop("events_days"))


        account_retention = cls(
            transcripts_days=transcripts_days,
            messages_days=messages_days,
            recordings_days=recordings_days,
            analyses_days=analyses_days,
            events_days=events_days,
        )


        account_retention.additional_properties = d
        return account_retention

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
