from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.analysis_success_type_0_verdict import AnalysisSuccessType0Verdict
from ..types import UNSET, Unset






T = TypeVar("T", bound="AnalysisSuccessType0")



@_attrs_define
class AnalysisSuccessType0:
    """ 
        Attributes:
            verdict (AnalysisSuccessType0Verdict):
            reason (str):
            score (int | Unset): `numeric_1_10` only: 1 to 10.
     """

    verdict: AnalysisSuccessType0Verdict
    reason: str
    score: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        verdict = self.verdict.value

        reason = self.reason

        score = self.score


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "verdict": verdict,
            "reason": reason,
        })
        if score is not UNSET:
            field_dict["score"] = score

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        verdict = AnalysisSuccessType0Verdict(d.pop("verdict"))




        reason = d.pop("reason")

        score = d.pop("score", UNSET)

        analysis_success_type_0 = cls(
            verdict=verdict,
            reason=reason,
            score=score,
        )

        return analysis_success_type_0

