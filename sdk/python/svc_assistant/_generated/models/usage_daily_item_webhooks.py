from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageDailyItemWebhooks")



@_attrs_define
class UsageDailyItemWebhooks:
    """ 
        Attributes:
            attempts (int):
            succeeded (int):
     """

    attempts: int
    succeeded: int





    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        succeeded = self.succeeded


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attempts": attempts,
            "succeeded": succeeded,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        succeeded = d.pop("succeeded")

        usage_daily_item_webhooks = cls(
            attempts=attempts,
            succeeded=succeeded,
        )

        return usage_daily_item_webhooks

