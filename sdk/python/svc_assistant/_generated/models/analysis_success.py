from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.analysis_success_verdict import AnalysisSuccessVerdict
from ..types import UNSET, Unset






T = TypeVar("T", bound="AnalysisSuccess")



@_attrs_define
class AnalysisSuccess:
    """ 
        Attributes:
            verdict (AnalysisSuccessVerdict):
            reason (str):
            score (int | Unset): `numeric_1_10` only: 1 to 10.
     """

    verdict: AnalysisSuccessVerdict
    reason: str
    score: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        verdict = self.verdict.value

        reason = self.reason

        score = self.score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        verdict = AnalysisSuccessVerdict(d.pop("verdict"))




        reason = d.pop("reason")

        score = d.pop("score", UNSET)

        analysis_success = cls(
            verdict=verdict,
            reason=reason,
            score=score,
        )


        analysis_success.additional_properties = d
        return analysis_success

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
