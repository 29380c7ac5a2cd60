from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TestSuiteScenariosItem")



@_attrs_define
class TestSuiteScenariosItem:
    """ 
        Attributes:
            name (str):
            persona (str): Who the simulated caller is.
            goal (str): What the caller wants from the call.
            rubric (str): What the judge checks the transcript against.
            max_turns (int | None): Caller turns at most; null: 20.
     """

    name: str
    persona: str
    goal: str
    rubric: str
    max_turns: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        persona = self.persona

        goal = self.goal

        rubric = self.rubric

        max_turns: int | None
        max_turns = self.max_turns


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "persona": persona,
            "goal": goal,
            "rubric": rubric,
            "max_turns": max_turns,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        persona = d.pop("persona")

        goal = d.pop("goal")

        rubric = d.pop("rubric")

        def _parse_max_turns(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_turns = _parse_max_turns(d.pop("max_turns"))


        test_suite_scenarios_item = cls(
            name=name,
            persona=persona,
            goal=goal,
            rubric=rubric,
            max_turns=max_turns,
        )


        test_suite_scenarios_item.additional_properties = d
        return test_suite_scenarios_item

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
