from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="AgentTurnTakingBackchannels")



@_attrs_define
class AgentTurnTakingBackchannels:
    """ Per language (`en`, `es`, `en-GB`…): words that only say "I am listening". Said alone while the assistant speaks,
    they neither interrupt it nor start a new model turn; the transcript keeps them, marked `backchannel: true`. A
    language given replaces its default list (`[]`: none); absent: the defaults (en: mhmm, uh-huh, yeah, ok, right…; es,
    fr, de, it, pt, nl likewise).

     """

    additional_properties: dict[str, list[str]] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        
        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop




        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_turn_taking_backchannels = cls(
        )


        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = cast(list[str], prop_dict)

            additional_properties[prop_name] = additional_property

        agent_turn_taking_backchannels.additional_properties = additional_properties
        return agent_turn_taking_backchannels

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> list[str]:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: list[str]) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
