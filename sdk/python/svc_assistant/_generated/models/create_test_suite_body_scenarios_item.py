from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateTestSuiteBodyScenariosItem")



@_attrs_define
class CreateTestSuiteBodyScenariosItem:
    """ 
        Attributes:
            name (str):
            persona (str): Who the simulated caller is (a model plays them).
            goal (str): What the caller wants from the call.
            rubric (str): What the judge checks the transcript against.
            max_turns (int | Unset): Caller turns at most (default 20).
     """

    name: str
    persona: str
    goal: str
    rubric: str
    max_turns: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        persona = self.persona

        goal = self.goal

        rubric = self.rubric

        max_turns = self.max_turns


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "persona": persona,
            "goal": goal,
            "rubric": rubric,
        })
        if max_turns is not UNSET:
            field_dict["max_turns"] = max_turns

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        persona = d.pop("persona")

        goal = d.pop("goal")

        rubric = d.pop("rubric")

        max_turns = d.pop("max_turns", UNSET)

        create_test_suite_body_scenarios_item = cls(
            name=name,
            persona=persona,
            goal=goal,
            rubric=rubric,
            max_turns=max_turns,
        )

        return create_test_suite_body_scenarios_item

