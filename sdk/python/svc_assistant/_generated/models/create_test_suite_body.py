from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.create_test_suite_body_scenarios_item import CreateTestSuiteBodyScenariosItem





T = TypeVar("T", bound="CreateTestSuiteBody")



@_attrs_define
class CreateTestSuiteBody:
    """ 
        Attributes:
            name (str):
            scenarios (list[CreateTestSuiteBodyScenariosItem]):
     """

    name: str
    scenarios: list[CreateTestSuiteBodyScenariosItem]





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_test_suite_body_scenarios_item import CreateTestSuiteBodyScenariosItem # noqa: PLC0415
        name = self.name

        scenarios = []
        for scenarios_item_data in self.scenarios:
            scenarios_item = scenarios_item_data.to_dict()
            scenarios.append(scenarios_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "scenarios": scenarios,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_test_suite_body_scenarios_item import CreateTestSuiteBodyScenariosItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        scenarios = []
        _scenarios = d.pop("scenarios")
        for scenarios_item_data in (_scenarios):
            scenarios_item = CreateTestSuiteBodyScenariosItem.from_dict(scenarios_item_data)



            scenarios.append(scenarios_item)


        create_test_suite_body = cls(
            name=name,
            scenarios=scenarios,
        )

        return create_test_suite_body

