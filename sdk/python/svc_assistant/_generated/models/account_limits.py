from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AccountLimits")



@_attrs_define
class AccountLimits:
    """ 
        Attributes:
            max_concurrent_calls (int): At most this many of the mode's calls are live at once (outbound, inbound, widget
                voice); an outbound call past it waits `queued`.
            calls_per_second (int): New live calls per second the organization's Twilio account admits (Twilio's CPS, 1 by
                default; set by the operator): every live dial (API calls, campaigns, callbacks, scheduled calls, warm-transfer
                legs) waits its turn, so none goes faster.
     """

    max_concurrent_calls: int
    calls_per_second: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        max_concurrent_calls = self.max_concurrent_calls

        calls_per_second = self.calls_per_second


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "max_concurrent_calls": max_concurrent_calls,
            "calls_per_second": calls_per_second,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_concurrent_calls = d.pop("max_concurrent_calls")

        calls_per_second = d.pop("calls_per_second")

        account_limits = cls(
            max_concurrent_calls=max_concurrent_calls,
            calls_per_second=calls_per_second,
        )


        account_limits.additional_properties = d
        return account_limits

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
