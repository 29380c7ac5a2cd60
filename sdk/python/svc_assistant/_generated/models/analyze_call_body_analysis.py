from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.analyze_call_body_analysis_structured_data import AnalyzeCallBodyAnalysisStructuredData
  from ..models.analyze_call_body_analysis_success_evaluation import AnalyzeCallBodyAnalysisSuccessEvaluation
  from ..models.analyze_call_body_analysis_summary_type_1 import AnalyzeCallBodyAnalysisSummaryType1





T = TypeVar("T", bound="AnalyzeCallBodyAnalysis")



@_attrs_define
class AnalyzeCallBodyAnalysis:
    """ The plan to run; absent: the call's own.

        Attributes:
            summary (AnalyzeCallBodyAnalysisSummaryType1 | bool | Unset): A short summary; `{"prompt"}` says what it should
                dwell on.
            structured_data (AnalyzeCallBodyAnalysisStructuredData | Unset): Values extracted from the transcript; the
                answer is validated against `schema` before it's kept.
            success_evaluation (AnalyzeCallBodyAnalysisSuccessEvaluation | Unset): Whether the conversation met `rubric`:
                `pass`/`fail`, with `numeric_1_10` a score too.
     """

    summary: AnalyzeCallBodyAnalysisSummaryType1 | bool | Unset = UNSET
    structured_data: AnalyzeCallBodyAnalysisStructuredData | Unset = UNSET
    success_evaluation: AnalyzeCallBodyAnalysisSuccessEvaluation | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.analyze_call_body_analysis_structured_data import AnalyzeCallBodyAnalysisStructuredData # noqa: PLC0415
        from ..models.analyze_call_body_analysis_success_evaluation import AnalyzeCallBodyAnalysisSuccessEvaluation # noqa: PLC0415
        from ..models.analyze_call_body_analysis_summary_type_1 import AnalyzeCallBodyAnalysisSummaryType1 # noqa: PLC0415
        summary: bool | dict[str, Any] | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, AnalyzeCallBodyAnalysisSummaryType1):
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
        from ..models.analyze_call_body_analysis_structured_data import AnalyzeCallBodyAnalysisStructuredData # noqa: PLC0415
        from ..models.analyze_call_body_analysis_success_evaluation import AnalyzeCallBodyAnalysisSuccessEvaluation # noqa: PLC0415
        from ..models.analyze_call_body_analysis_summary_type_1 import AnalyzeCallBodyAnalysisSummaryType1 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_summary(data: object) -> AnalyzeCallBodyAnalysisSummaryType1 | bool | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_1 = AnalyzeCallBodyAnalysisSummaryType1.from_dict(data)



                return summary_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AnalyzeCallBodyAnalysisSummaryType1 | bool | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))


        _structured_data = d.pop("structured_data", UNSET)
        structured_data: AnalyzeCallBodyAnalysisStructuredData | Unset
        if isinstance(_structured_data,  Unset):
            structured_data = UNSET
        else:
            structured_data = AnalyzeCallBodyAnalysisStructuredData.from_dict(_structured_data)




        _success_evaluation = d.pop("success_evaluation", UNSET)
        success_evaluation: AnalyzeCallBodyAnalysisSuccessEvaluation | Unset
        if isinstance(_success_evaluation,  Unset):
            success_evaluation = UNSET
        else:
            success_evaluation = AnalyzeCallBodyAnalysisSuccessEvaluation.from_dict(_success_evaluation)




        analyze_call_body_analysis = cls(
            summary=summary,
            structured_data=structured_data,
            success_evaluation=success_evaluation,
        )

        return analyze_call_body_analysis

