from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageTotalsKnowledge")



@_attrs_define
class UsageTotalsKnowledge:
    """ 
        Attributes:
            searches (int):
     """

    searches: int





    def to_dict(self) -> dict[str, Any]:
        searches = self.searches


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "searches": searches,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        searches = d.pop("searches")

        usage_totals_knowledge = cls(
            searches=searches,
        )

        return usage_totals_knowledge

