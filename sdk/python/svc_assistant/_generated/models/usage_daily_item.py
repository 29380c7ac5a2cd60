from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.usage_cost import UsageCost
  from ..models.usage_daily_item_analysis import UsageDailyItemAnalysis
  from ..models.usage_daily_item_calls import UsageDailyItemCalls
  from ..models.usage_daily_item_knowledge import UsageDailyItemKnowledge
  from ..models.usage_daily_item_llm import UsageDailyItemLlm
  from ..models.usage_daily_item_messages import UsageDailyItemMessages
  from ..models.usage_daily_item_realtime import UsageDailyItemRealtime
  from ..models.usage_daily_item_webhooks import UsageDailyItemWebhooks





T = TypeVar("T", bound="UsageDailyItem")



@_attrs_define
class UsageDailyItem:
    """ 
        Attributes:
            date (str):
            calls (UsageDailyItemCalls):
            messages (UsageDailyItemMessages):
            llm (UsageDailyItemLlm):
            knowledge (UsageDailyItemKnowledge):
            analysis (UsageDailyItemAnalysis):
            webhooks (UsageDailyItemWebhooks):
            realtime (UsageDailyItemRealtime):
            cost (UsageCost): What the calls, conversation turns and analyses of a period cost: the sums of their recorded
                `Cost`s, in integer micro-units (millionths) of the dollar; `incomplete` counts the costs that lack a model
                missing from the price table.
     """

    date: str
    calls: UsageDailyItemCalls
    messages: UsageDailyItemMessages
    llm: UsageDailyItemLlm
    knowledge: UsageDailyItemKnowledge
    analysis: UsageDailyItemAnalysis
    webhooks: UsageDailyItemWebhooks
    realtime: UsageDailyItemRealtime
    cost: UsageCost
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_cost import UsageCost # noqa: PLC0415
        from ..models.usage_daily_item_analysis import UsageDailyItemAnalysis # noqa: PLC0415
        from ..models.usage_daily_item_calls import UsageDailyItemCalls # noqa: PLC0415
        from ..models.usage_daily_item_knowledge import UsageDailyItemKnowledge # noqa: PLC0415
        from ..models.usage_daily_item_llm import UsageDailyItemLlm # noqa: PLC0415
        from ..models.usage_daily_item_messages import UsageDailyItemMessages # noqa: PLC0415
        from ..models.usage_daily_item_realtime import UsageDailyItemRealtime # noqa: PLC0415
        from ..models.usage_daily_item_webhooks import UsageDailyItemWebhooks # noqa: PLC0415
        date = self.date

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
            "date": date,
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
        from ..models.usage_daily_item_analysis import UsageDailyItemAnalysis # noqa: PLC0415
        from ..models.usage_daily_item_calls import UsageDailyItemCalls # noqa: PLC0415
        from ..models.usage_daily_item_knowledge import UsageDailyItemKnowledge # noqa: PLC0415
        from ..models.usage_daily_item_llm import UsageDailyItemLlm # noqa: PLC0415
        from ..models.usage_daily_item_messages import UsageDailyItemMessages # noqa: PLC0415
        from ..models.usage_daily_item_realtime import UsageDailyItemRealtime # noqa: PLC0415
        from ..models.usage_daily_item_webhooks import UsageDailyItemWebhooks # noqa: PLC0415
        d = dict(src_dict)
        date = d.pop("date")

        calls = UsageDailyItemCalls.from_dict(d.pop("calls"))




        messages = UsageDailyItemMessages.from_dict(d.pop("messages"))




        llm = UsageDailyItemLlm.from_dict(d.pop("llm"))




        knowledge = UsageDailyItemKnowledge.from_dict(d.pop("knowledge"))




        analysis = UsageDailyItemAnalysis.from_dict(d.pop("analysis"))




        webhooks = UsageDailyItemWebhooks.from_dict(d.pop("webhooks"))




        realtime = UsageDailyItemRealtime.from_dict(d.pop("realtime"))




        cost = UsageCost.from_dict(d.pop("cost"))




        usage_daily_item = cls(
            date=date,
            calls=calls,
            messages=messages,
            llm=llm,
            knowledge=knowledge,
            analysis=analysis,
            webhooks=webhooks,
            realtime=realtime,
            cost=cost,
        )


        usage_daily_item.additional_properties = d
        return usage_daily_item

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
