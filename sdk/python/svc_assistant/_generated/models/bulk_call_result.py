from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bulk_call_result_status import BulkCallResultStatus
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.bulk_call_result_contact import BulkCallResultContact
  from ..models.bulk_call_result_form_type_0 import BulkCallResultFormType0





T = TypeVar("T", bound="BulkCallResult")



@_attrs_define
class BulkCallResult:
    """ One contact of a campaign: its outcome, attempts, calls and filled form.

        Attributes:
            id (str):
            object_ (Literal['bulk_call_result']):
            livemode (bool):
            bulk_call_id (str):
            index (int):
            contact (BulkCallResultContact | str): The contact as given in the request: a phone number, or the contact
                object.
            status (BulkCallResultStatus):
            attempts (int):
            call_ids (list[str]):
            form (BulkCallResultFormType0 | None):
            updated (int | None):
     """

    id: str
    object_: Literal['bulk_call_result']
    livemode: bool
    bulk_call_id: str
    index: int
    contact: BulkCallResultContact | str
    status: BulkCallResultStatus
    attempts: int
    call_ids: list[str]
    form: BulkCallResultFormType0 | None
    updated: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_call_result_contact import BulkCallResultContact # noqa: PLC0415
        from ..models.bulk_call_result_form_type_0 import BulkCallResultFormType0 # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        bulk_call_id = self.bulk_call_id

        index = self.index

        contact: dict[str, Any] | str
        if isinstance(self.contact, BulkCallResultContact):
            contact = self.contact.to_dict()
        else:
            contact = self.contact

        status = self.status.value

        attempts = self.attempts

        call_ids = self.call_ids



        form: dict[str, Any] | None
        if isinstance(self.form, BulkCallResultFormType0):
            form = self.form.to_dict()
        else:
            form = self.form

        updated: int | None
        updated = self.updated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "bulk_call_id": bulk_call_id,
            "index": index,
            "contact": contact,
            "status": status,
            "attempts": attempts,
            "call_ids": call_ids,
            "form": form,
            "updated": updated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_call_result_contact import BulkCallResultContact # noqa: PLC0415
        from ..models.bulk_call_result_form_type_0 import BulkCallResultFormType0 # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['bulk_call_result'] , d.pop("object"))
        if object_ != 'bulk_call_result':
            raise ValueError(f"object must match const 'bulk_call_result', got '{object_}'")

        livemode = d.pop("livemode")

        bulk_call_id = d.pop("bulk_call_id")

        index = d.pop("index")

        def _parse_contact(data: object) -> BulkCallResultContact | str:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                contact_type_1 = BulkCallResultContact.from_dict(data)



                return contact_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BulkCallResultContact | str, data)

        contact = _parse_contact(d.pop("contact"))


        status = BulkCallResultStatus(d.pop("status"))




        attempts = d.pop("attempts")

        call_ids = cast(list[str], d.pop("call_ids"))


        def _parse_form(data: object) -> BulkCallResultFormType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                form_type_0 = BulkCallResultFormType0.from_dict(data)



                return form_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BulkCallResultFormType0 | None, data)

        form = _parse_form(d.pop("form"))


        def _parse_updated(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        updated = _parse_updated(d.pop("updated"))


        bulk_call_result = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            bulk_call_id=bulk_call_id,
            index=index,
            contact=contact,
            status=status,
            attempts=attempts,
            call_ids=call_ids,
            form=form,
            updated=updated,
        )


        bulk_call_result.additional_properties = d
        return bulk_call_result

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
