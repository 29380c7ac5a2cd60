from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_agent_body_analysis_type_0_structured_data import UpdateAgentBodyAnalysisType0StructuredData
  from ..models.update_agent_body_analysis_type_0_success_evaluation import UpdateAgentBodyAnalysisType0SuccessEvaluation
  from ..models.update_agent_body_analysis_type_0_summary_type_1 import UpdateAgentBodyAnalysisType0SummaryType1





T = TypeVar("T", bound="UpdateAgentBodyAnalysisType0")



@_attrs_define
class UpdateAgentBodyAnalysisType0:
    """ What to learn from a finished call: `summary`, `structured_data` (a JSON Schema), `success_evaluation`; each
    optional.

        Attributes:
            summary (bool | Unset | UpdateAgentBodyAnalysisType0SummaryType1): A short summary; `{"prompt"}` says what it
                should dwell on.
            structured_data (UpdateAgentBodyAnalysisType0StructuredData | Unset): Values extracted from the transcript; the
                answer is validated against `schema` before it's kept.
            success_evaluation (UpdateAgentBodyAnalysisType0SuccessEvaluation | Unset): Whether the conversation met
                `rubric`: `pass`/`fail`, with `numeric_1_10` a score too.
     """

    summary: bool | Unset | UpdateAgentBodyAnalysisType0SummaryType1 = UNSET
    structured_data: UpdateAgentBodyAnalysisType0StructuredData | Unset = UNSET
    success_evaluation: UpdateAgentBodyAnalysisType0SuccessEvaluation | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_agent_body_analysis_type_0_structured_data import UpdateAgentBodyAnalysisType0StructuredData # noqa: PLC0415
        from ..models.update_agent_body_analysis_type_0_success_evaluation import UpdateAgentBodyAnalysisType0SuccessEvaluation # noqa: PLC0415
        from ..models.update_agent_body_analysis_type_0_summary_type_1 import UpdateAgentBodyAnalysisType0SummaryType1 # noqa: PLC0415
        summary: bool | dict[str, Any] | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, UpdateAgentBodyAnalysisType0SummaryType1):
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
        from ..models.update_agent_body_analysis_type_0_structured_data import UpdateAgentBodyAnalysisType0StructuredData # noqa: PLC0415
        from ..models.update_agent_body_analysis_type_0_success_evaluation import UpdateAgentBodyAnalysisType0SuccessEvaluation # noqa: PLC0415
        from ..models.update_agent_body_analysis_type_0_summary_type_1 import UpdateAgentBodyAnalysisType0SummaryType1 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_summary(data: object) -> bool | Unset | UpdateAgentBodyAnalysisType0SummaryType1:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_1 = UpdateAgentBodyAnalysisType0SummaryType1.from_dict(data)



                return summary_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | Unset | UpdateAgentBodyAnalysisType0SummaryType1, data)

        summary = _parse_summary(d.pop("summary", UNSET))


        _structured_data = d.pop("structured_data", UNSET)
        structured_data: UpdateAgentBodyAnalysisType0StructuredData | Unset
        if isinstance(_structured_data,  Unset):
            structured_data = UNSET
        else:
            structured_data = UpdateAgentBodyAnalysisType0StructuredData.from_dict(_structured_data)




        _success_evaluation = d.pop("success_evaluation", UNSET)
        success_evaluation: UpdateAgentBodyAnalysisType0SuccessEvaluation | Unset
        if isinstance(_success_evaluation,  Unset):
            success_evaluation = UNSET
        else:
            success_evaluation = UpdateAgentBodyAnalysisType0SuccessEvaluation.from_dict(_success_evaluation)




        update_agent_body_analysis_type_0 = cls(
            summary=summary,
            structured_data=structured_data,
            success_evaluation=success_evaluation,
        )

        return update_agent_body_analysis_type_0

