from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="BulkCallCounts")



@_attrs_define
class BulkCallCounts:
    """ 
        Attributes:
            total (int):
            pending (int):
            in_progress (int):
            completed (int):
            not_reached (int):
            failed (int):
            skipped (int):
     """

    total: int
    pending: int
    in_progress: int
    completed: int
    not_reached: int
    failed: int
    skipped: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        total = self.total

        pending = self.pending

        in_progress = self.in_progress

        completed = self.completed

        not_reached = self.not_reached

        failed = self.failed

        skipped = self.skipped


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "total": total,
            "pending": pending,
            "in_progress": in_progress,
            "completed": completed,
            "not_reached": not_reached,
            "failed": failed,
            "skipped": skipped,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total = d.pop("total")

        pending = d.pop("pending")

        in_progress = d.pop("in_progress")

        completed = d.pop("completed")

        not_reached = d.pop("not_reached")

        failed = d.pop("failed")

        skipped = d.pop("skipped")

        bulk_call_counts = cls(
            total=total,
            pending=pending,
            in_progress=in_progress,
            completed=completed,
            not_reached=not_reached,
            failed=failed,
            skipped=skipped,
        )


        bulk_call_counts.additional_properties = d
        return bulk_call_counts

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
