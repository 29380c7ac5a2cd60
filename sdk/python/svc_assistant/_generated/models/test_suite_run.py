from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.test_suite_run_status import TestSuiteRunStatus
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.test_suite_run_comparison import TestSuiteRunComparison
  from ..models.test_suite_run_counts import TestSuiteRunCounts
  from ..models.test_suite_run_results_item import TestSuiteRunResultsItem





T = TypeVar("T", bound="TestSuiteRun")



@_attrs_define
class TestSuiteRun:
    """ One run of a test suite: each scenario a simulated persona call judged against its rubric, the run's progress, and
    what changed since the previous run.

        Attributes:
            id (str):
            object_ (Literal['test_suite_run']):
            livemode (bool):
            test_suite_id (str):
            agent_id (str):
            agent_version (int | None): The agent version run; null: the agent's current configuration.
            status (TestSuiteRunStatus):
            counts (TestSuiteRunCounts):
            results (list[TestSuiteRunResultsItem]):
            comparison (None | TestSuiteRunComparison): Set once completed: what changed since the previous completed run of
                the suite.
            created (int): Unix time in seconds.
            completed_at (int | None):
     """

    id: str
    object_: Literal['test_suite_run']
    livemode: bool
    test_suite_id: str
    agent_id: str
    agent_version: int | None
    status: TestSuiteRunStatus
    counts: TestSuiteRunCounts
    results: list[TestSuiteRunResultsItem]
    comparison: None | TestSuiteRunComparison
    created: int
    completed_at: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.test_suite_run_comparison import TestSuiteRunComparison # noqa: PLC0415
        from ..models.test_suite_run_counts import TestSuiteRunCounts # noqa: PLC0415
        from ..models.test_suite_run_results_item import TestSuiteRunResultsItem # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        test_suite_id = self.test_suite_id

        agent_id = self.agent_id

        agent_version: int | None
        agent_version = self.agent_version

        status = self.status.value

        counts = self.counts.to_dict()

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)



        comparison: dict[str, Any] | None
        if isinstance(self.comparison, TestSuiteRunComparison):
            comparison = self.comparison.to_dict()
        else:
            comparison = self.comparison

        created = self.created

        completed_at: int | None
        completed_at = self.completed_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "test_suite_id": test_suite_id,
            "agent_id": agent_id,
            "agent_version": agent_version,
            "status": status,
            "counts": counts,
            "results": results,
            "comparison": comparison,
            "created": created,
            "completed_at": completed_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.test_suite_run_comparison import TestSuiteRunComparison # noqa: PLC0415
        from ..models.test_suite_run_counts import TestSuiteRunCounts # noqa: PLC0415
        from ..models.test_suite_run_results_item import TestSuiteRunResultsItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['test_suite_run'] , d.pop("object"))
        if object_ != 'test_suite_run':
            raise ValueError(f"object must match const 'test_suite_run', got '{object_}'")

        livemode = d.pop("livemode")

        test_suite_id = d.pop("test_suite_id")

        agent_id = d.pop("agent_id")

        def _parse_agent_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        agent_version = _parse_agent_version(d.pop("agent_version"))


        status = TestSuiteRunStatus(d.pop("status"))




        counts = TestSuiteRunCounts.from_dict(d.pop("counts"))




        results = []
        _results = d.pop("results")
        for results_item_data in (_results):
            results_item = TestSuiteRunResultsItem.from_dict(results_item_data)



            results.append(results_item)


        def _parse_comparison(data: object) -> None | TestSuiteRunComparison:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                comparison_type_0 = TestSuiteRunComparison.from_dict(data)



                return comparison_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TestSuiteRunComparison, data)

        comparison = _parse_comparison(d.pop("comparison"))


        created = d.pop("created")

        def _parse_completed_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        test_suite_run = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            test_suite_id=test_suite_id,
            agent_id=agent_id,
            agent_version=agent_version,
            status=status,
            counts=counts,
            results=results,
            comparison=comparison,
            created=created,
            completed_at=completed_at,
        )


        test_suite_run.additional_properties = d
        return test_suite_run

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
