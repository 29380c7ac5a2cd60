from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_agent_body_turn_taking_type_0_turn_detection_type_1_eagerness import UpdateAgentBodyTurnTakingType0TurnDetectionType1Eagerness
from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="UpdateAgentBodyTurnTakingType0TurnDetectionType1")



@_attrs_define
class UpdateAgentBodyTurnTakingType0TurnDetectionType1:
    """ 
        Attributes:
            type_ (Literal['semantic_vad']):
            eagerness (UpdateAgentBodyTurnTakingType0TurnDetectionType1Eagerness | Unset): How soon the model takes its
                turn: `low` waits for the caller longest (at most 8 s), `high` least (2 s); `auto` (default) is `medium` (4 s).
     """

    type_: Literal['semantic_vad']
    eagerness: UpdateAgentBodyTurnTakingType0TurnDetectionType1Eagerness | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        eagerness: str | Unset = UNSET
        if not isinstance(self.eagerness, Unset):
            eagerness = self.eagerness.value



        field_dict: dict[str, Any] = {}

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
        eagerness: UpdateAgentBodyTurnTakingType0TurnDetectionType1Eagerness | Unset
        if isinstance(_eagerness,  Unset):
            eagerness = UNSET
        else:
            eagerness = UpdateAgentBodyTurnTakingType0TurnDetectionType1Eagerness(_eagerness)




        update_agent_body_turn_taking_type_0_turn_detection_type_1 = cls(
            type_=type_,
            eagerness=eagerness,
        )

        return update_agent_body_turn_taking_type_0_turn_detection_type_1

