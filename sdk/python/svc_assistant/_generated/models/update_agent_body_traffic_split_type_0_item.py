from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UpdateAgentBodyTrafficSplitType0Item")



@_attrs_define
class UpdateAgentBodyTrafficSplitType0Item:
    """ 
        Attributes:
            version (int): A version of this agent.
            weight (int): Its share of new calls and conversations, in percent.
     """

    version: int
    weight: int





    def to_dict(self) -> dict[str, Any]:
        version = self.version

        weight = self.weight


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "version": version,
            "weight": weight,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        version = d.pop("version")

        weight = d.pop("weight")

        update_agent_body_traffic_split_type_0_item = cls(
            version=version,
            weight=weight,
        )

        return update_agent_body_traffic_split_type_0_item

