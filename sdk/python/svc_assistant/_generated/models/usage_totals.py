from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.usage_cost import UsageCost
  from ..models.usage_totals_analysis import UsageTotalsAnalysis
  from ..models.usage_totals_calls import UsageTotalsCalls
  from ..models.usage_totals_knowledge import UsageTotalsKnowledge
  from ..models.usage_totals_llm import UsageTotalsLlm
  from ..models.usage_totals_messages import UsageTotalsMessages
  from ..models.usage_totals_realtime import UsageTotalsRealtime
  from ..models.usage_totals_webhooks import UsageTotalsWebhooks





T = TypeVar("T", bound="UsageTotals")



@_attrs_define
class UsageTotals:
    """ 
        Attributes:
            calls (UsageTotalsCalls):
            messages (UsageTotalsMessages):
            llm (UsageTotalsLlm):
            knowledge (UsageTotalsKnowledge):
            analysis (UsageTotalsAnalysis):
            webhooks (UsageTotalsWebhooks):
            realtime (UsageTotalsRealtime):
            cost (UsageCost): What the calls, conversation turns and analyses of a period cost: the sums of their recorded
                `Cost`s, in integer micro-units (millionths) of the dollar; `incomplete` counts the costs that lack a model
                missing from the price table.
     """

    calls: UsageTotalsCalls
    messages: UsageTotalsMessages
    llm: UsageTotalsLlm
    knowledge: UsageTotalsKnowledge
    analysis: UsageTotalsAnalysis
    webhooks: UsageTotalsWebhooks
    realtime: UsageTotalsRealtime
    cost: UsageCost
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_cost import UsageCost # noqa: PLC0415
        from ..models.usage_totals_analysis import UsageTotalsAnalysis # noqa: PLC0415
        from ..models.usage_totals_calls import UsageTotalsCalls # noqa: PLC0415
        from ..models.usage_totals_knowledge import UsageTotalsKnowledge # noqa: PLC0415
        from ..models.usage_totals_llm import UsageTotalsLlm # noqa: PLC0415
        from ..models.usage_totals_messages import UsageTotalsMessages # noqa: PLC0415
        from ..models.usage_totals_realtime import UsageTotalsRealtime # noqa: PLC0415
        from ..models.usage_totals_webhooks import UsageTotalsWebhooks # noqa: PLC0415
        calls = self.calls.to_dict()

        messages = self.messages.to_dict()

        llm = self.llm.to_dict()

        knowledge = self.knowledge.to_dict()

        analysis = self.analysis.to_dict()

        webhooks = self.webhooks.to_dict()

        realtime = self.realtime.to_dict()

        cost = self.cost.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "calls": calls,
            "messages": messages,
            "llm": llm,
            "knowledge": knowledge,
            "analysis": analysis,
            "webhooks": webhooks,
            "realtime": realtime,
            "cost": cost,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_cost import UsageCost # noqa: PLC0415
        from ..models.usage_totals_analysis import UsageTotalsAnalysis # noqa: PLC0415
        from ..models.usage_totals_calls import UsageTotalsCalls # noqa: PLC0415
        from ..models.usage_totals_knowledge import UsageTotalsKnowledge # noqa: PLC0415
        from ..models.usage_totals_llm import UsageTotalsLlm # noqa: PLC0415
        from ..models.usage_totals_messages import UsageTotalsMessages # noqa: PLC0415
        from ..models.usage_totals_realtime import UsageTotalsRealtime # noqa: PLC0415
        from ..models.usage_totals_webhooks import UsageTotalsWebhooks # noqa: PLC0415
        d = dict(src_dict)
        calls = UsageTotalsCalls.from_dict(d.pop("calls"))




        messages = UsageTotalsMessages.from_dict(d.pop("messages"))




        llm = UsageTotalsLlm.from_dict(d.pop("llm"))




        knowledge = UsageTotalsKnowledge.from_dict(d.pop("knowledge"))




        analysis = UsageTotalsAnalysis.from_dict(d.pop("analysis"))




        webhooks = UsageTotalsWebhooks.from_dict(d.pop("webhooks"))




        realtime = UsageTotalsRealtime.from_dict(d.pop("realtime"))




        cost = UsageCost.from_dict(d.pop("cost"))




        usage_totals = cls(
            calls=calls,
            messages=messages,
            llm=llm,
            knowledge=knowledge,
            analysis=analysis,
            webhooks=webhooks,
            realtime=realtime,
            cost=cost,
        )


        usage_totals.additional_properties = d
        return usage_totals

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
