from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.test_suite_scenarios_item import TestSuiteScenariosItem





T = TypeVar("T", bound="TestSuite")



@_attrs_define
class TestSuite:
    """ Scenarios of simulated callers (a persona, a goal) and the rubric each call is judged by.

        Attributes:
            id (str):
            object_ (Literal['test_suite']):
            livemode (bool):
            agent_id (str):
            name (str):
            scenarios (list[TestSuiteScenariosItem]):
            created (int): Unix time in seconds.
            updated (int): Unix time in seconds.
     """

    id: str
    object_: Literal['test_suite']
    livemode: bool
    agent_id: str
    name: str
    scenarios: list[TestSuiteScenariosItem]
    created: int
    updated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.test_suite_scenarios_item import TestSuiteScenariosItem # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        agent_id = self.agent_id

        name = self.name

        scenarios = []
        for scenarios_item_data in self.scenarios:
            scenarios_item = scenarios_item_data.to_dict()
            scenarios.append(scenarios_item)



        created = self.created

        updated = self.updated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "agent_id": agent_id,
            "name": name,
            "scenarios": scenarios,
            "created": created,
            "updated": updated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_suite_scenarios_item import TestSuiteScenariosItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['test_suite'] , d.pop("object"))
        if object_ != 'test_suite':
            raise ValueError(f"object must match const 'test_suite', got '{object_}'")

        livemode = d.pop("livemode")

        agent_id = d.pop("agent_id")

        name = d.pop("name")

        scenarios = []
        _scenarios = d.pop("scenarios")
        for scenarios_item_data in (_scenarios):
            scenarios_item = TestSuiteScenariosItem.from_dict(scenarios_item_data)



            scenarios.append(scenarios_item)


        created = d.pop("created")

        updated = d.pop("updated")

        test_suite = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            agent_id=agent_id,
            name=name,
            scenarios=scenarios,
            created=created,
            updated=updated,
        )


        test_suite.additional_properties = d
        return test_suite

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
