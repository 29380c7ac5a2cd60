from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_bulk_call_body_contacts_item_type_1_simulation_transfer_answer import CreateBulkCallBodyContactsItemType1SimulationTransferAnswer
from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateBulkCallBodyContactsItemType1SimulationTransfer")



@_attrs_define
class CreateBulkCallBodyContactsItemType1SimulationTransfer:
    """ What the person a warm transfer dials does, after `after_seconds` (default 0): `answered` (hears the summary, is
    joined: `transferred`), `no_answer` or `busy` (`call.transfer_failed`; the caller is back with the assistant).
    Absent: answered at once.

        Attributes:
            answer (CreateBulkCallBodyContactsItemType1SimulationTransferAnswer):
            after_seconds (float | Unset):
     """

    answer: CreateBulkCallBodyContactsItemType1SimulationTransferAnswer
    after_seconds: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        answer = self.answer.value

        after_seconds = self.after_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "answer": answer,
        })
        if after_seconds is not UNSET:
            field_dict["after_seconds"] = after_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        answer = CreateBulkCallBodyContactsItemType1SimulationTransferAnswer(d.pop("answer"))




        after_seconds = d.pop("after_seconds", UNSET)

        create_bulk_call_body_contacts_item_type_1_simulation_transfer = cls(
            answer=answer,
            after_seconds=after_seconds,
        )

        return create_bulk_call_body_contacts_item_type_1_simulation_transfer

