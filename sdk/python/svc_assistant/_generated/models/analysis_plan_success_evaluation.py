from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.analysis_plan_success_evaluation_scale import AnalysisPlanSuccessEvaluationScale






T = TypeVar("T", bound="AnalysisPlanSuccessEvaluation")



@_attrs_define
class AnalysisPlanSuccessEvaluation:
    """ Whether the conversation met `rubric`: `pass`/`fail`, with `numeric_1_10` a score too.

        Attributes:
            rubric (str):
            scale (AnalysisPlanSuccessEvaluationScale):
     """

    rubric: str
    scale: AnalysisPlanSuccessEvaluationScale





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

        scale = AnalysisPlanSuccessEvaluationScale(d.pop("scale"))




        analysis_plan_success_evaluation = cls(
            rubric=rubric,
            scale=scale,
        )

        return analysis_plan_success_evaluation

