from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TestSuiteRunCounts")



@_attrs_define
class TestSuiteRunCounts:
    """ 
        Attributes:
            total (int):
            pending (int):
            running (int):
            passed (int):
            failed (int):
            errored (int):
     """

    total: int
    pending: int
    running: int
    passed: int
    failed: int
    errored: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        total = self.total

        pending = self.pending

        running = self.running

        passed = self.passed

        failed = self.failed

        errored = self.errored


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "total": total,
            "pending": pending,
            "running": running,
            "passed": passed,
            "failed": failed,
            "errored": errored,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        total = d.pop("total")

        pending = d.pop("pending")

        running = d.pop("running")

        passed = d.pop("passed")

        failed = d.pop("failed")

        errored = d.pop("errored")

        test_suite_run_counts = cls(
            total=total,
            pending=pending,
            running=running,
            passed=passed,
            failed=failed,
            errored=errored,
        )


        test_suite_run_counts.additional_properties = d
        return test_suite_run_counts

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
