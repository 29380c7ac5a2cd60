from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_test_suite_body_scenarios_item import UpdateTestSuiteBodyScenariosItem





T = TypeVar("T", bound="UpdateTestSuiteBody")



@_attrs_define
class UpdateTestSuiteBody:
    """ 
        Attributes:
            name (str | Unset):
            scenarios (list[UpdateTestSuiteBodyScenariosItem] | Unset):
     """

    name: str | Unset = UNSET
    scenarios: list[UpdateTestSuiteBodyScenariosItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_test_suite_body_scenarios_item import UpdateTestSuiteBodyScenariosItem # noqa: PLC0415
        name = self.name

        scenarios: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.scenarios, Unset):
            scenarios = []
            for scenarios_item_data in self.scenarios:
                scenarios_item = scenarios_item_data.to_dict()
                scenarios.append(scenarios_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if scenarios is not UNSET:
            field_dict["scenarios"] = scenarios

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_test_suite_body_scenarios_item import UpdateTestSuiteBodyScenariosItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _scenarios = d.pop("scenarios", UNSET)
        scenarios: list[UpdateTestSuiteBodyScenariosItem] | Unset = UNSET
        if _scenarios is not UNSET:
            scenarios = []
            for scenarios_item_data in _scenarios:
                scenarios_item = UpdateTestSuiteBodyScenariosItem.from_dict(scenarios_item_data)



                scenarios.append(scenarios_item)


        update_test_suite_body = cls(
            name=name,
            scenarios=scenarios,
        )

        return update_test_suite_body

