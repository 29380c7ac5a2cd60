from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="TestSuiteRunResultsItemChecksItem")



@_attrs_define
class TestSuiteRunResultsItemChecksItem:
    """ 
        Attributes:
            name (Literal['ai_disclosure']):
            passed (bool):
            detail (str):
     """

    name: Literal['ai_disclosure']
    passed: bool
    detail: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        passed = self.passed

        detail = self.detail


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "passed": passed,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = cast(Literal['ai_disclosure'] , d.pop("name"))
        if name != 'ai_disclosure':
            raise ValueError(f"name must match const 'ai_disclosure', got '{name}'")

        passed = d.pop("passed")

        detail = d.pop("detail")

        test_suite_run_results_item_checks_item = cls(
            name=name,
            passed=passed,
            detail=detail,
        )


        test_suite_run_results_item_checks_item.additional_properties = d
        return test_suite_run_results_item_checks_item

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
