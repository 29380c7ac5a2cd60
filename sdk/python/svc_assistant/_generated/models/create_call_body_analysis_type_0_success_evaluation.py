from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_call_body_analysis_type_0_success_evaluation_scale import CreateCallBodyAnalysisType0SuccessEvaluationScale






T = TypeVar("T", bound="CreateCallBodyAnalysisType0SuccessEvaluation")



@_attrs_define
class CreateCallBodyAnalysisType0SuccessEvaluation:
    """ Whether the conversation met `rubric`: `pass`/`fail`, with `numeric_1_10` a score too.

        Attributes:
            rubric (str):
            scale (CreateCallBodyAnalysisType0SuccessEvaluationScale):
     """

    rubric: str
    scale: CreateCallBodyAnalysisType0SuccessEvaluationScale





    def to_dict(self) -> dict[str, Any]:
        rubric = self.rubric

        scale = self.scale.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rubric": rubric,
            "scale": scale,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rubric = d.pop("rubric")

        scale = CreateCallBodyAnalysisType0SuccessEvaluationScale(d.pop("scale"))




        create_call_body_analysis_type_0_success_evaluation = cls(
            rubric=rubric,
            scale=scale,
        )

        return create_call_body_analysis_type_0_success_evaluation

