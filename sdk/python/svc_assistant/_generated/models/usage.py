from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.usage_daily_item import UsageDailyItem
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="Usage")



@_attrs_define
class Usage:
    """ The organization's usage over a period of local days: totals and one entry per day.

        Attributes:
            object_ (Literal['usage']):
            livemode (bool):
            from_ (str):
            to (str):
            timezone (str):
            currency (Literal['usd']):
            as_of (int): Unix time in seconds.
            totals (UsageTotals):
            daily (list[UsageDailyItem]):
     """

    object_: Literal['usage']
    livemode: bool
    from_: str
    to: str
    timezone: str
    currency: Literal['usd']
    as_of: int
    totals: UsageTotals
    daily: list[UsageDailyItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_daily_item import UsageDailyItem # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        object_ = self.object_

        livemode = self.livemode

        from_ = self.from_

        to = self.to

        timezone = self.timezone

        currency = self.currency

        as_of = self.as_of

        totals = self.totals.to_dict()

        daily = []
        for daily_item_data in self.daily:
            daily_item = daily_item_data.to_dict()
            daily.append(daily_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "livemode": livemode,
            "from": from_,
            "to": to,
            "timezone": timezone,
            "currency": currency,
            "as_of": as_of,
            "totals": totals,
            "daily": daily,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_daily_item import UsageDailyItem # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['usage'] , d.pop("object"))
        if object_ != 'usage':
            raise ValueError(f"object must match const 'usage', got '{object_}'")

        livemode = d.pop("livemode")

        from_ = d.pop("from")

        to = d.pop("to")

        timezone = d.pop("timezone")

        currency = cast(Literal['usd'] , d.pop("currency"))
        if currency != 'usd':
            raise ValueError(f"currency must match const 'usd', got '{currency}'")

        as_of = d.pop("as_of")

        totals = UsageTotals.from_dict(d.pop("totals"))




        daily = []
        _daily = d.pop("daily")
        for daily_item_data in (_daily):
            daily_item = UsageDailyItem.from_dict(daily_item_data)



            daily.append(daily_item)


        usage = cls(
            object_=object_,
            livemode=livemode,
            from_=from_,
            to=to,
            timezone=timezone,
            currency=currency,
            as_of=as_of,
            totals=totals,
            daily=daily,
        )


        usage.additional_properties = d
        return usage

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
