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
     """

    max_concurrent_calls: int





    def to_dict(self) -> dict[str, Any]:
        max_concurrent_calls = self.max_concurrent_calls


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "max_concurrent_calls": max_concurrent_calls,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_concurrent_calls = d.pop("max_concurrent_calls")

        account_limits = cls(
            max_concurrent_calls=max_concurrent_calls,
        )

        return account_limits

