from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.usage_daily_item_messages_inbound import UsageDailyItemMessagesInbound
  from ..models.usage_daily_item_messages_outbound import UsageDailyItemMessagesOutbound





T = TypeVar("T", bound="UsageDailyItemMessages")



@_attrs_define
class UsageDailyItemMessages:
    """ 
        Attributes:
            outbound (UsageDailyItemMessagesOutbound):
            inbound (UsageDailyItemMessagesInbound):
     """

    outbound: UsageDailyItemMessagesOutbound
    inbound: UsageDailyItemMessagesInbound
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_daily_item_messages_inbound import UsageDailyItemMessagesInbound # noqa: PLC0415
        from ..models.usage_daily_item_messages_outbound import UsageDailyItemMessagesOutbound # noqa: PLC0415
        outbound = self.outbound.to_dict()

        inbound = self.inbound.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "outbound": outbound,
            "inbound": inbound,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_daily_item_messages_inbound import UsageDailyItemMessagesInbound # noqa: PLC0415
        from ..models.usage_daily_item_messages_outbound import UsageDailyItemMessagesOutbound # noqa: PLC0415
        d = dict(src_dict)
        outbound = UsageDailyItemMessagesOutbound.from_dict(d.pop("outbound"))




        inbound = UsageDailyItemMessagesInbound.from_dict(d.pop("inbound"))




        usage_daily_item_messages = cls(
            outbound=outbound,
            inbound=inbound,
        )


        usage_daily_item_messages.additional_properties = d
        return usage_daily_item_messages

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
