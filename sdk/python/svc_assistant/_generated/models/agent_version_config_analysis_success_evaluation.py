from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_version_config_analysis_success_evaluation_scale import AgentVersionConfigAnalysisSuccessEvaluationScale






T = TypeVar("T", bound="AgentVersionConfigAnalysisSuccessEvaluation")



@_attrs_define
class AgentVersionConfigAnalysisSuccessEvaluation:
    """ 
        Attributes:
            rubric (str):
            scale (AgentVersionConfigAnalysisSuccessEvaluationScale):
     """

    rubric: str
    scale: AgentVersionConfigAnalysisSuccessEvaluationScale
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        rubric = self.rubric

        scale = self.scale.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rubric": rubric,
            "scale": scale,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rubric = d.pop("rubric")

        scale = AgentVersionConfigAnalysisSuccessEvaluationScale(d.pop("scale"))




        agent_version_config_analysis_success_evaluation = cls(
            rubric=rubric,
            scale=scale,
        )


        agent_version_config_analysis_success_evaluation.additional_properties = d
        return agent_version_config_analysis_success_evaluation

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
