from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_version_config_turn_taking_turn_detection_2_eagerness import AgentVersionConfigTurnTakingTurnDetection2Eagerness
from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="AgentVersionConfigTurnTakingTurnDetection2")



@_attrs_define
class AgentVersionConfigTurnTakingTurnDetection2:
    """ 
        Attributes:
            type_ (Literal['semantic_vad']):
            eagerness (AgentVersionConfigTurnTakingTurnDetection2Eagerness | Unset): How soon the model takes its turn:
                `low` waits for the caller longest (at most 8 s), `high` least (2 s); `auto` (default) is `medium` (4 s).
     """

    type_: Literal['semantic_vad']
    eagerness: AgentVersionConfigTurnTakingTurnDetection2Eagerness | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        eagerness: str | Unset = UNSET
        if not isinstance(self.eagerness, Unset):
            eagerness = self.eagerness.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
        })
        if eagerness is not UNSET:
            field_dict["eagerness"] = eagerness

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['semantic_vad'] , d.pop("type"))
        if type_ != 'semantic_vad':
            raise ValueError(f"type must match const 'semantic_vad', got '{type_}'")

        _eagerness = d.pop("eagerness", UNSET)
        eagerness: AgentVersionConfigTurnTakingTurnDetection2Eagerness | Unset
        if isinstance(_eagerness,  Unset):
            eagerness = UNSET
        else:
            eagerness = AgentVersionConfigTurnTakingTurnDetection2Eagerness(_eagerness)




        agent_version_config_turn_taking_turn_detection_2 = cls(
            type_=type_,
            eagerness=eagerness,
        )


        agent_version_config_turn_taking_turn_detection_2.additional_properties = d
        return agent_version_config_turn_taking_turn_detection_2

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
