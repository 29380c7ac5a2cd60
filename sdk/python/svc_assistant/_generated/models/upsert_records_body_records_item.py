from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.upsert_records_body_records_item_data import UpsertRecordsBodyRecordsItemData





T = TypeVar("T", bound="UpsertRecordsBodyRecordsItem")



@_attrs_define
class UpsertRecordsBodyRecordsItem:
    """ 
        Attributes:
            text (str):
            type_ (None | str | Unset):
            title (None | str | Unset):
            data (UpsertRecordsBodyRecordsItemData | Unset):
            occurred_at (int | None | Unset):
            external_id (None | str | Unset):
     """

    text: str
    type_: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    data: UpsertRecordsBodyRecordsItemData | Unset = UNSET
    occurred_at: int | None | Unset = UNSET
    external_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.upsert_records_body_records_item_data import UpsertRecordsBodyRecordsItemData # noqa: PLC0415
        text = self.text

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        occurred_at: int | None | Unset
        if isinstance(self.occurred_at, Unset):
            occurred_at = UNSET
        else:
            occurred_at = self.occurred_at

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "text": text,
        })
        if type_ is not UNSET:
            field_dict["type"] = type_
        if title is not UNSET:
            field_dict["title"] = title
        if data is not UNSET:
            field_dict["data"] = data
        if occurred_at is not UNSET:
            field_dict["occurred_at"] = occurred_at
        if external_id is not UNSET:
            field_dict["external_id"] = external_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.upsert_records_body_records_item_data import UpsertRecordsBodyRecordsItemData # noqa: PLC0415
        d = dict(src_dict)
        text = d.pop("text")

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))


        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        _data = d.pop("data", UNSET)
        data: UpsertRecordsBodyRecordsItemData | Unset
        if isinstance(_data,  Unset):
            data = UNSET
        else:
            data = UpsertRecordsBodyRecordsItemData.from_dict(_data)




        def _parse_occurred_at(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        occurred_at = _parse_occurred_at(d.pop("occurred_at", UNSET))


        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("external_id", UNSET))


        upsert_records_body_records_item = cls(
            text=text,
            type_=type_,
            title=title,
            data=data,
            occurred_at=occurred_at,
            external_id=external_id,
        )

        return upsert_records_body_records_item

