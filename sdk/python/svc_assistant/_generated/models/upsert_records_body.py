from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.upsert_records_body_contact import UpsertRecordsBodyContact
  from ..models.upsert_records_body_records_item import UpsertRecordsBodyRecordsItem





T = TypeVar("T", bound="UpsertRecordsBody")



@_attrs_define
class UpsertRecordsBody:
    """ 
        Attributes:
            contact (UpsertRecordsBodyContact):
            records (list[UpsertRecordsBodyRecordsItem]):
     """

    contact: UpsertRecordsBodyContact
    records: list[UpsertRecordsBodyRecordsItem]





    def to_dict(self) -> dict[str, Any]:
        from ..models.upsert_records_body_contact import UpsertRecordsBodyContact # noqa: PLC0415
        from ..models.upsert_records_body_records_item import UpsertRecordsBodyRecordsItem # noqa: PLC0415
        contact = self.contact.to_dict()

        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "contact": contact,
            "records": records,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.upsert_records_body_contact import UpsertRecordsBodyContact # noqa: PLC0415
        from ..models.upsert_records_body_records_item import UpsertRecordsBodyRecordsItem # noqa: PLC0415
        d = dict(src_dict)
        contact = UpsertRecordsBodyContact.from_dict(d.pop("contact"))




        records = []
        _records = d.pop("records")
        for records_item_data in (_records):
            records_item = UpsertRecordsBodyRecordsItem.from_dict(records_item_data)



            records.append(records_item)


        upsert_records_body = cls(
            contact=contact,
            records=records,
        )

        return upsert_records_body

