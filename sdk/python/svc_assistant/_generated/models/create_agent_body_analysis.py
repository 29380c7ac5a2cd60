from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_agent_body_analysis_structured_data import CreateAgentBodyAnalysisStructuredData
  from ..models.create_agent_body_analysis_success_evaluation import CreateAgentBodyAnalysisSuccessEvaluation
  from ..models.create_agent_body_analysis_summary_type_1 import CreateAgentBodyAnalysisSummaryType1





T = TypeVar("T", bound="CreateAgentBodyAnalysis")



@_attrs_define
class CreateAgentBodyAnalysis:
    """ What to learn from each call once it has ended: `summary`, `structured_data` (a JSON Schema), `success_evaluation`;
    the result is the call's `analysis` and a `call.analyzed` event.

        Attributes:
            summary (bool | CreateAgentBodyAnalysisSummaryType1 | Unset): A short summary; `{"prompt"}` says what it should
                dwell on.
            structured_data (CreateAgentBodyAnalysisStructuredData | Unset): Values extracted from the transcript; the
                answer is validated against `schema` before it's kept.
            success_evaluation (CreateAgentBodyAnalysisSuccessEvaluation | Unset): Whether the conversation met `rubric`:
                `pass`/`fail`, with `numeric_1_10` a score too.
     """

    summary: bool | CreateAgentBodyAnalysisSummaryType1 | Unset = UNSET
    structured_data: CreateAgentBodyAnalysisStructuredData | Unset = UNSET
    success_evaluation: CreateAgentBodyAnalysisSuccessEvaluation | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_agent_body_analysis_structured_data import CreateAgentBodyAnalysisStructuredData # noqa: PLC0415
        from ..models.create_agent_body_analysis_success_evaluation import CreateAgentBodyAnalysisSuccessEvaluation # noqa: PLC0415
        from ..models.create_agent_body_analysis_summary_type_1 import CreateAgentBodyAnalysisSummaryType1 # noqa: PLC0415
        summary: bool | dict[str, Any] | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, CreateAgentBodyAnalysisSummaryType1):
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
        from ..models.create_agent_body_analysis_structured_data import CreateAgentBodyAnalysisStructuredData # noqa: PLC0415
        from ..models.create_agent_body_analysis_success_evaluation import CreateAgentBodyAnalysisSuccessEvaluation # noqa: PLC0415
        from ..models.create_agent_body_analysis_summary_type_1 import CreateAgentBodyAnalysisSummaryType1 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_summary(data: object) -> bool | CreateAgentBodyAnalysisSummaryType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_1 = CreateAgentBodyAnalysisSummaryType1.from_dict(data)



                return summary_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | CreateAgentBodyAnalysisSummaryType1 | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))


        _structured_data = d.pop("structured_data", UNSET)
        structured_data: CreateAgentBodyAnalysisStructuredData | Unset
        if isinstance(_structured_data,  Unset):
            structured_data = UNSET
        else:
            structured_data = CreateAgentBodyAnalysisStructuredData.from_dict(_structured_data)




        _success_evaluation = d.pop("success_evaluation", UNSET)
        success_evaluation: CreateAgentBodyAnalysisSuccessEvaluation | Unset
        if isinstance(_success_evaluation,  Unset):
            success_evaluation = UNSET
        else:
            success_evaluation = CreateAgentBodyAnalysisSuccessEvaluation.from_dict(_success_evaluation)




        create_agent_body_analysis = cls(
            summary=summary,
            structured_data=structured_data,
            success_evaluation=success_evaluation,
        )

        return create_agent_body_analysis

