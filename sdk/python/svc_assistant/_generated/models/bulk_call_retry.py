from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bulk_call_retry_on_item import BulkCallRetryOnItem
from typing import cast






T = TypeVar("T", bound="BulkCallRetry")



@_attrs_define
class BulkCallRetry:
    """ 
        Attributes:
            max_attempts (int):
            on (list[BulkCallRetryOnItem]):
            interval_seconds (int):
     """

    max_attempts: int
    on: list[BulkCallRetryOnItem]
    interval_seconds: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        max_attempts = self.max_attempts

        on = []
        for on_item_data in self.on:
            on_item = on_item_data.value
            on.append(on_item)



        interval_seconds = self.interval_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "max_attempts": max_attempts,
            "on": on,
            "interval_seconds": interval_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_attempts = d.pop("max_attempts")

        on = []
        _on = d.pop("on")
        for on_item_data in (_on):
            on_item = BulkCallRetryOnItem(on_item_data)



            on.append(on_item)


        interval_seconds = d.pop("interval_seconds")

        bulk_call_retry = cls(
            max_attempts=max_attempts,
            on=on,
            interval_seconds=interval_seconds,
        )


        bulk_call_retry.additional_properties = d
        return bulk_call_retry

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
