from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_agent_body_analysis_success_evaluation_scale import CreateAgentBodyAnalysisSuccessEvaluationScale






T = TypeVar("T", bound="CreateAgentBodyAnalysisSuccessEvaluation")



@_attrs_define
class CreateAgentBodyAnalysisSuccessEvaluation:
    """ Whether the conversation met `rubric`: `pass`/`fail`, with `numeric_1_10` a score too.

        Attributes:
            rubric (str):
            scale (CreateAgentBodyAnalysisSuccessEvaluationScale):
     """

    rubric: str
    scale: CreateAgentBodyAnalysisSuccessEvaluationScale





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

        scale = CreateAgentBodyAnalysisSuccessEvaluationScale(d.pop("scale"))




        create_agent_body_analysis_success_evaluation = cls(
            rubric=rubric,
            scale=scale,
        )

        return create_agent_body_analysis_success_evaluation

