from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.account_quotas_analysis_reruns_per_day import AccountQuotasAnalysisRerunsPerDay
  from ..models.account_quotas_llm_tokens_per_day import AccountQuotasLlmTokensPerDay
  from ..models.account_quotas_test_suite_runs_per_day import AccountQuotasTestSuiteRunsPerDay





T = TypeVar("T", bound="AccountQuotas")



@_attrs_define
class AccountQuotas:
    """ 
        Attributes:
            llm_tokens_per_day (AccountQuotasLlmTokensPerDay):
            test_suite_runs_per_day (AccountQuotasTestSuiteRunsPerDay):
            analysis_reruns_per_day (AccountQuotasAnalysisRerunsPerDay):
            resets_at (int): When the day ends and every quota starts again (00:00 UTC), unix seconds.
     """

    llm_tokens_per_day: AccountQuotasLlmTokensPerDay
    test_suite_runs_per_day: AccountQuotasTestSuiteRunsPerDay
    analysis_reruns_per_day: AccountQuotasAnalysisRerunsPerDay
    resets_at: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.account_quotas_analysis_reruns_per_day import AccountQuotasAnalysisRerunsPerDay # noqa: PLC0415
        from ..models.account_quotas_llm_tokens_per_day import AccountQuotasLlmTokensPerDay # noqa: PLC0415
        from ..models.account_quotas_test_suite_runs_per_day import AccountQuotasTestSuiteRunsPerDay # noqa: PLC0415
        llm_tokens_per_day = self.llm_tokens_per_day.to_dict()

        test_suite_runs_per_day = self.test_suite_runs_per_day.to_dict()

        analysis_reruns_per_day = self.analysis_reruns_per_day.to_dict()

        resets_at = self.resets_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "llm_tokens_per_day": llm_tokens_per_day,
            "test_suite_runs_per_day": test_suite_runs_per_day,
            "analysis_reruns_per_day": analysis_reruns_per_day,
            "resets_at": resets_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_quotas_analysis_reruns_per_day import AccountQuotasAnalysisRerunsPerDay # noqa: PLC0415
        from ..models.account_quotas_llm_tokens_per_day import AccountQuotasLlmTokensPerDay # noqa: PLC0415
        from ..models.account_quotas_test_suite_runs_per_day import AccountQuotasTestSuiteRunsPerDay # noqa: PLC0415
        d = dict(src_dict)
        llm_tokens_per_day = AccountQuotasLlmTokensPerDay.from_dict(d.pop("llm_tokens_per_day"))




        test_suite_runs_per_day = AccountQuotasTestSuiteRunsPerDay.from_dict(d.pop("test_suite_runs_per_day"))




        analysis_reruns_per_day = AccountQuotasAnalysisRerunsPerDay.from_dict(d.pop("analysis_reruns_per_day"))




        resets_at = d.pop("resets_at")

        account_quotas = cls(
            llm_tokens_per_day=llm_tokens_per_day,
            test_suite_runs_per_day=test_suite_runs_per_day,
            analysis_reruns_per_day=analysis_reruns_per_day,
            resets_at=resets_at,
        )


        account_quotas.additional_properties = d
        return account_quotas

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
