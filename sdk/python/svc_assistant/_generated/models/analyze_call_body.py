from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.analyze_call_body_analysis import AnalyzeCallBodyAnalysis





T = TypeVar("T", bound="AnalyzeCallBody")



@_attrs_define
class AnalyzeCallBody:
    """ 
        Attributes:
            analysis (AnalyzeCallBodyAnalysis | Unset): The plan to run; absent: the call's own.
            form_id (str | Unset): A form (`form_…`) to fill from the transcript: its fields are the structured data's
                schema.
     """

    analysis: AnalyzeCallBodyAnalysis | Unset = UNSET
    form_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.analyze_call_body_analysis import AnalyzeCallBodyAnalysis # noqa: PLC0415
        analysis: dict[str, Any] | Unset = UNSET
        if not isinstance(self.analysis, Unset):
            analysis = self.analysis.to_dict()

        form_id = self.form_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if analysis is not UNSET:
            field_dict["analysis"] = analysis
        if form_id is not UNSET:
            field_dict["form_id"] = form_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analyze_call_body_analysis import AnalyzeCallBodyAnalysis # noqa: PLC0415
        d = dict(src_dict)
        _analysis = d.pop("analysis", UNSET)
        analysis: AnalyzeCallBodyAnalysis | Unset
        if isinstance(_analysis,  Unset):
            analysis = UNSET
        else:
            analysis = AnalyzeCallBodyAnalysis.from_dict(_analysis)




        form_id = d.pop("form_id", UNSET)

        analyze_call_body = cls(
            analysis=analysis,
            form_id=form_id,
        )

        return analyze_call_body

