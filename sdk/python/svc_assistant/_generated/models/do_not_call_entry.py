from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.do_not_call_entry_source import DoNotCallEntrySource
from typing import Literal, cast






T = TypeVar("T", bound="DoNotCallEntry")



@_attrs_define
class DoNotCallEntry:
    """ A number of the organization’s do-not-call list: no call of its is ever dialed to it.

        Attributes:
            id (str):
            object_ (Literal['do_not_call_entry']):
            livemode (bool):
            phone (str): The number, E.164.
            source (DoNotCallEntrySource): How it was listed: `numbers` (api) or `csv` of `POST /v1/do_not_call`, or
                `opt_out`: the person asked not to be called again on a call.
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['do_not_call_entry']
    livemode: bool
    phone: str
    source: DoNotCallEntrySource
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        phone = self.phone

        source = self.source.value

        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "phone": phone,
            "source": source,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['do_not_call_entry'] , d.pop("object"))
        if object_ != 'do_not_call_entry':
            raise ValueError(f"object must match const 'do_not_call_entry', got '{object_}'")

        livemode = d.pop("livemode")

        phone = d.pop("phone")

        source = DoNotCallEntrySource(d.pop("source"))




        created = d.pop("created")

        do_not_call_entry = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            phone=phone,
            source=source,
            created=created,
        )


        do_not_call_entry.additional_properties = d
        return do_not_call_entry

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
