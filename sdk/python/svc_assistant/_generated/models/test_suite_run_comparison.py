from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.test_suite_run_comparison_changed_item import TestSuiteRunComparisonChangedItem





T = TypeVar("T", bound="TestSuiteRunComparison")



@_attrs_define
class TestSuiteRunComparison:
    """ 
        Attributes:
            previous_run_id (None | str):
            changed (list[TestSuiteRunComparisonChangedItem]): Scenarios whose outcome differs from the previous run's (by
                scenario name).
     """

    previous_run_id: None | str
    changed: list[TestSuiteRunComparisonChangedItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.test_suite_run_comparison_changed_item import TestSuiteRunComparisonChangedItem # noqa: PLC0415
        previous_run_id: None | str
        previous_run_id = self.previous_run_id

        changed = []
        for changed_item_data in self.changed:
            changed_item = changed_item_data.to_dict()
            changed.append(changed_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "previous_run_id": previous_run_id,
            "changed": changed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_suite_run_comparison_changed_item import TestSuiteRunComparisonChangedItem # noqa: PLC0415
        d = dict(src_dict)
        def _parse_previous_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_run_id = _parse_previous_run_id(d.pop("previous_run_id"))


        changed = []
        _changed = d.pop("changed")
        for changed_item_data in (_changed):
            changed_item = TestSuiteRunComparisonChangedItem.from_dict(changed_item_data)



            changed.append(changed_item)


        test_suite_run_comparison = cls(
            previous_run_id=previous_run_id,
            changed=changed,
        )


        test_suite_run_comparison.additional_properties = d
        return test_suite_run_comparison

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
