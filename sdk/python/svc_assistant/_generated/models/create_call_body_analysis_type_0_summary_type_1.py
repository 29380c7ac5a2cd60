from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CreateCallBodyAnalysisType0SummaryType1")



@_attrs_define
class CreateCallBodyAnalysisType0SummaryType1:
    """ 
        Attributes:
            prompt (str):
     """

    prompt: str





    def to_dict(self) -> dict[str, Any]:
        prompt = self.prompt


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "prompt": prompt,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        prompt = d.pop("prompt")

        create_call_body_analysis_type_0_summary_type_1 = cls(
            prompt=prompt,
        )

        return create_call_body_analysis_type_0_summary_type_1

