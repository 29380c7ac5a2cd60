from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_bulk_call_body_retry_on_item import CreateBulkCallBodyRetryOnItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateBulkCallBodyRetry")



@_attrs_define
class CreateBulkCallBodyRetry:
    """ 
        Attributes:
            max_attempts (int | Unset):
            on (list[CreateBulkCallBodyRetryOnItem] | Unset): Outcomes redialed: `busy`, `no_answer`, `failed`, `voicemail`
                (a machine answered).
            interval_seconds (int | Unset):
     """

    max_attempts: int | Unset = UNSET
    on: list[CreateBulkCallBodyRetryOnItem] | Unset = UNSET
    interval_seconds: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        max_attempts = self.max_attempts

        on: list[str] | Unset = UNSET
        if not isinstance(self.on, Unset):
            on = []
            for on_item_data in self.on:
                on_item = on_item_data.value
                on.append(on_item)



        interval_seconds = self.interval_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if max_attempts is not UNSET:
            field_dict["max_attempts"] = max_attempts
        if on is not UNSET:
            field_dict["on"] = on
        if interval_seconds is not UNSET:
            field_dict["interval_seconds"] = interval_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_attempts = d.pop("max_attempts", UNSET)

        _on = d.pop("on", UNSET)
        on: list[CreateBulkCallBodyRetryOnItem] | Unset = UNSET
        if _on is not UNSET:
            on = []
            for on_item_data in _on:
                on_item = CreateBulkCallBodyRetryOnItem(on_item_data)



                on.append(on_item)


        interval_seconds = d.pop("interval_seconds", UNSET)

        create_bulk_call_body_retry = cls(
            max_attempts=max_attempts,
            on=on,
            interval_seconds=interval_seconds,
        )

        return create_bulk_call_body_retry

