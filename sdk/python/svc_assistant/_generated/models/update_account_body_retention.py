from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateAccountBodyRetention")



@_attrs_define
class UpdateAccountBodyRetention:
    """ 
        Attributes:
            transcripts_days (int | None | Unset):
            messages_days (int | None | Unset):
            recordings_days (int | None | Unset):
            analyses_days (int | None | Unset):
            events_days (int | None | Unset):
     """

    transcripts_days: int | None | Unset = UNSET
    messages_days: int | None | Unset = UNSET
    recordings_days: int | None | Unset = UNSET
    analyses_days: int | None | Unset = UNSET
    events_days: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        transcripts_days: int | None | Unset
        if isinstance(self.transcripts_days, Unset):
            transcripts_days = UNSET
        else:
            transcripts_days = self.transcripts_days

        messages_days: int | None | Unset
        if isinstance(self.messages_days, Unset):
            messages_days = UNSET
        else:
            messages_days = self.messages_days

        recordings_days: int | None | Unset
        if isinstance(self.recordings_days, Unset):
            recordings_days = UNSET
        else:
            recordings_days = self.recordings_days

        analyses_days: int | None | Unset
        if isinstance(self.analyses_days, Unset):
            analyses_days = UNSET
        else:
            analyses_days = self.analyses_days

        events_days: int | None | Unset
        if isinstance(self.events_days, Unset):
            events_days = UNSET
        else:
            events_days = self.events_days


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if transcripts_days is not UNSET:
            field_dict["transcripts_days"] = transcripts_days
        if messages_days is not UNSET:
            field_dict["messages_days"] = messages_days
        if recordings_days is not UNSET:
            field_dict["recordings_days"] = recordings_days
        if analyses_days is not UNSET:
            field_dict["analyses_days"] = analyses_days
        if events_days is not UNSET:
            field_dict["events_days"] = events_days

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_transcripts_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        transcripts_days = _parse_transcripts_days(d.pop("transcripts_days", UNSET))


        def _parse_messages_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        messages_days = _parse_messages_days(d.pop("messages_days", UNSET))


        def _parse_recordings_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        recordings_days = _parse_recordings_days(d.pop("recordings_days", UNSET))


        def _parse_analyses_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        analyses_days = _parse_analyses_days(d.pop("analyses_days", UNSET))


        def _parse_events_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        events_days = _parse_events_days(d.pop("events_days", UNSET))


        update_account_body_retention = cls(
            transcripts_days=transcripts_days,
            messages_days=messages_days,
            recordings_days=recordings_days,
            analyses_days=analyses_days,
            events_days=events_days,
        )

        return update_account_body_retention

