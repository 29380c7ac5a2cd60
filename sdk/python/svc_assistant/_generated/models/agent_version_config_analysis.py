from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agent_version_config_analysis_structured_data import AgentVersionConfigAnalysisStructuredData
  from ..models.agent_version_config_analysis_success_evaluation import AgentVersionConfigAnalysisSuccessEvaluation
  from ..models.agent_version_config_analysis_summary import AgentVersionConfigAnalysisSummary





T = TypeVar("T", bound="AgentVersionConfigAnalysis")



@_attrs_define
class AgentVersionConfigAnalysis:
    """ 
        Attributes:
            summary (AgentVersionConfigAnalysisSummary | bool | Unset): A short summary; `{"prompt"}` says what it should
                dwell on.
            structured_data (AgentVersionConfigAnalysisStructuredData | Unset):
            success_evaluation (AgentVersionConfigAnalysisSuccessEvaluation | Unset):
     """

    summary: AgentVersionConfigAnalysisSummary | bool | Unset = UNSET
    structured_data: AgentVersionConfigAnalysisStructuredData | Unset = UNSET
    success_evaluation: AgentVersionConfigAnalysisSuccessEvaluation | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_version_config_analysis_structured_data import AgentVersionConfigAnalysisStructuredData # noqa: PLC0415
        from ..models.agent_version_config_analysis_success_evaluation import AgentVersionConfigAnalysisSuccessEvaluation # noqa: PLC0415
        from ..models.agent_version_config_analysis_summary import AgentVersionConfigAnalysisSummary # noqa: PLC0415
        summary: bool | dict[str, Any] | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, AgentVersionConfigAnalysisSummary):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        structured_data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.structured_data, Unset):
            structured_data = self.structured_data.to_dict()

        success_evaluation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.success_evaluation, Unset):
            success_evaluation = self.success_evaluation.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if summary is not UNSET:
            field_dict["summary"] = summary
        if structured_data is not UNSET:
            field_dict["structured_data"] = structured_data
        if success_evaluation is not UNSET:
            field_dict["success_evaluation"] = success_evaluation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_version_config_analysis_structured_data import AgentVersionConfigAnalysisStructuredData # noqa: PLC0415
        from ..models.agent_version_config_analysis_success_evaluation import AgentVersionConfigAnalysisSuccessEvaluation # noqa: PLC0415
        from ..models.agent_version_config_analysis_summary import AgentVersionConfigAnalysisSummary # noqa: PLC0415
        d = dict(src_dict)
        def _parse_summary(data: object) -> AgentVersionConfigAnalysisSummary | bool | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_1 = AgentVersionConfigAnalysisSummary.from_dict(data)



                return summary_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigAnalysisSummary | bool | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))


        _structured_data = d.pop("structured_data", UNSET)
        structured_data: AgentVersionConfigAnalysisStructuredData | Unset
        if isinstance(_structured_data,  Unset):
            structured_data = UNSET
        else:
            structured_data = AgentVersionConfigAnalysisStructuredData.from_dict(_structured_data)




        _success_evaluation = d.pop("success_evaluation", UNSET)
        success_evaluation: AgentVersionConfigAnalysisSuccessEvaluation | Unset
        if isinstance(_success_evaluation,  Unset):
            success_evaluation = UNSET
        else:
            success_evaluation = AgentVersionConfigAnalysisSuccessEvaluation.from_dict(_success_evaluation)




        agent_version_config_analysis = cls(
            summary=summary,
            structured_data=structured_data,
            success_evaluation=success_evaluation,
        )


        agent_version_config_analysis.additional_properties = d
        return agent_version_config_analysis

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
