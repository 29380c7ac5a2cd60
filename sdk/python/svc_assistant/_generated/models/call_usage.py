from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.call_usage_analysis import CallUsageAnalysis
  from ..models.call_usage_llm import CallUsageLlm
  from ..models.call_usage_realtime import CallUsageRealtime





T = TypeVar("T", bound="CallUsage")



@_attrs_define
class CallUsage:
    """ 
        Attributes:
            llm (CallUsageLlm):
            realtime (CallUsageRealtime):
            analysis (CallUsageAnalysis):
     """

    llm: CallUsageLlm
    realtime: CallUsageRealtime
    analysis: CallUsageAnalysis
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call_usage_analysis import CallUsageAnalysis # noqa: PLC0415
        from ..models.call_usage_llm import CallUsageLlm # noqa: PLC0415
        from ..models.call_usage_realtime import CallUsageRealtime # noqa: PLC0415
        llm = self.llm.to_dict()

        realtime = self.realtime.to_dict()

        analysis = self.analysis.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "llm": llm,
            "realtime": realtime,
            "analysis": analysis,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call_usage_analysis import CallUsageAnalysis # noqa: PLC0415
        from ..models.call_usage_llm import CallUsageLlm # noqa: PLC0415
        from ..models.call_usage_realtime import CallUsageRealtime # noqa: PLC0415
        d = dict(src_dict)
        llm = CallUsageLlm.from_dict(d.pop("llm"))




        realtime = CallUsageRealtime.from_dict(d.pop("realtime"))




        analysis = CallUsageAnalysis.from_dict(d.pop("analysis"))




        call_usage = cls(
            llm=llm,
            realtime=realtime,
            analysis=analysis,
        )


        call_usage.additional_properties = d
        return call_usage

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
