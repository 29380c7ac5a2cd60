from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.test_suite_run_results_item_status import TestSuiteRunResultsItemStatus
from ..models.test_suite_run_results_item_verdict_type_0 import TestSuiteRunResultsItemVerdictType0
from typing import cast

if TYPE_CHECKING:
  from ..models.test_suite_run_results_item_checks_item import TestSuiteRunResultsItemChecksItem
  from ..models.test_suite_run_results_item_reasons_item import TestSuiteRunResultsItemReasonsItem





T = TypeVar("T", bound="TestSuiteRunResultsItem")



@_attrs_define
class TestSuiteRunResultsItem:
    """ 
        Attributes:
            scenario (str):
            status (TestSuiteRunResultsItemStatus): `errored`: the call failed or the judge gave no valid verdict after a
                retry (never counted as passed).
            call_id (None | str):
            verdict (None | TestSuiteRunResultsItemVerdictType0):
            score (int | None): 0 (worst) to 100 (best).
            reasons (list[TestSuiteRunResultsItemReasonsItem]): Each quotes the transcript.
            checks (list[TestSuiteRunResultsItemChecksItem]): Built-in checks made beside the judge's rubric:
                `ai_disclosure` (the call's first sentence said it is an automated assistant) when the organization's
                `ai_disclosure` is on. A failed check fails the scenario.
            error (None | str):
     """

    scenario: str
    status: TestSuiteRunResultsItemStatus
    call_id: None | str
    verdict: None | TestSuiteRunResultsItemVerdictType0
    score: int | None
    reasons: list[TestSuiteRunResultsItemReasonsItem]
    checks: list[TestSuiteRunResultsItemChecksItem]
    error: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.test_suite_run_results_item_checks_item import TestSuiteRunResultsItemChecksItem # noqa: PLC0415
        from ..models.test_suite_run_results_item_reasons_item import TestSuiteRunResultsItemReasonsItem # noqa: PLC0415
        scenario = self.scenario

        status = self.status.value

        call_id: None | str
        call_id = self.call_id

        verdict: None | str
        if isinstance(self.verdict, TestSuiteRunResultsItemVerdictType0):
            verdict = self.verdict.value
        else:
            verdict = self.verdict

        score: int | None
        score = self.score

        reasons = []
        for reasons_item_data in self.reasons:
            reasons_item = reasons_item_data.to_dict()
            reasons.append(reasons_item)



        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)



        error: None | str
        error = self.error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "scenario": scenario,
            "status": status,
            "call_id": call_id,
            "verdict": verdict,
            "score": score,
            "reasons": reasons,
            "checks": checks,
            "error": error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_suite_run_results_item_checks_item import TestSuiteRunResultsItemChecksItem # noqa: PLC0415
        from ..models.test_suite_run_results_item_reasons_item import TestSuiteRunResultsItemReasonsItem # noqa: PLC0415
        d = dict(src_dict)
        scenario = d.pop("scenario")

        status = TestSuiteRunResultsItemStatus(d.pop("status"))




        def _parse_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        call_id = _parse_call_id(d.pop("call_id"))


        def _parse_verdict(data: object) -> None | TestSuiteRunResultsItemVerdictType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_0 = TestSuiteRunResultsItemVerdictType0(data)



                return verdict_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TestSuiteRunResultsItemVerdictType0, data)

        verdict = _parse_verdict(d.pop("verdict"))


        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))


        reasons = []
        _reasons = d.pop("reasons")
        for reasons_item_data in (_reasons):
            reasons_item = TestSuiteRunResultsItemReasonsItem.from_dict(reasons_item_data)



            reasons.append(reasons_item)


        checks = []
        _checks = d.pop("checks")
        for checks_item_data in (_checks):
            checks_item = TestSuiteRunResultsItemChecksItem.from_dict(checks_item_data)



            checks.append(checks_item)


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        test_suite_run_results_item = cls(
            scenario=scenario,
            status=status,
            call_id=call_id,
            verdict=verdict,
            score=score,
            reasons=reasons,
            checks=checks,
            error=error,
        )


        test_suite_run_results_item.additional_properties = d
        return test_suite_run_results_item

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
