from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.test_suite_run_comparison_changed_item_current import TestSuiteRunComparisonChangedItemCurrent
from ..models.test_suite_run_comparison_changed_item_previous import TestSuiteRunComparisonChangedItemPrevious






T = TypeVar("T", bound="TestSuiteRunComparisonChangedItem")



@_attrs_define
class TestSuiteRunComparisonChangedItem:
    """ 
        Attributes:
            scenario (str):
            previous (TestSuiteRunComparisonChangedItemPrevious):
            current (TestSuiteRunComparisonChangedItemCurrent):
     """

    scenario: str
    previous: TestSuiteRunComparisonChangedItemPrevious
    current: TestSuiteRunComparisonChangedItemCurrent
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        scenario = self.scenario

        previous = self.previous.value

        current = self.current.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "scenario": scenario,
            "previous": previous,
            "current": current,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        scenario = d.pop("scenario")

        previous = TestSuiteRunComparisonChangedItemPrevious(d.pop("previous"))




        current = TestSuiteRunComparisonChangedItemCurrent(d.pop("current"))




        test_suite_run_comparison_changed_item = cls(
            scenario=scenario,
            previous=previous,
            current=current,
        )


        test_suite_run_comparison_changed_item.additional_properties = d
        return test_suite_run_comparison_changed_item

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
