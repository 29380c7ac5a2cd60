from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.analyze_conversation_body_analysis import AnalyzeConversationBodyAnalysis





T = TypeVar("T", bound="AnalyzeConversationBody")



@_attrs_define
class AnalyzeConversationBody:
    """ 
        Attributes:
            analysis (AnalyzeConversationBodyAnalysis | Unset): The plan to run; absent: the conversation's agent's.
     """

    analysis: AnalyzeConversationBodyAnalysis | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.analyze_conversation_body_analysis import AnalyzeConversationBodyAnalysis # noqa: PLC0415
        analysis: dict[str, Any] | Unset = UNSET
        if not isinstance(self.analysis, Unset):
            analysis = self.analysis.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if analysis is not UNSET:
            field_dict["analysis"] = analysis

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analyze_conversation_body_analysis import AnalyzeConversationBodyAnalysis # noqa: PLC0415
        d = dict(src_dict)
        _analysis = d.pop("analysis", UNSET)
        analysis: AnalyzeConversationBodyAnalysis | Unset
        if isinstance(_analysis,  Unset):
            analysis = UNSET
        else:
            analysis = AnalyzeConversationBodyAnalysis.from_dict(_analysis)




        analyze_conversation_body = cls(
            analysis=analysis,
        )

        return analyze_conversation_body

