from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="DoNotCallImport")



@_attrs_define
class DoNotCallImport:
    """ The numbers a `POST /v1/do_not_call` listed.

        Attributes:
            object_ (Literal['do_not_call_import']):
            livemode (bool):
            received (int): Numbers in the request, repeats counted once.
            added (int): Numbers newly listed.
            already_listed (int): Numbers that were listed already.
     """

    object_: Literal['do_not_call_import']
    livemode: bool
    received: int
    added: int
    already_listed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        livemode = self.livemode

        received = self.received

        added = self.added

        already_listed = self.already_listed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "livemode": livemode,
            "received": received,
            "added": added,
            "already_listed": already_listed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        object_ = cast(Literal['do_not_call_import'] , d.pop("object"))
        if object_ != 'do_not_call_import':
            raise ValueError(f"object must match const 'do_not_call_import', got '{object_}'")

        livemode = d.pop("livemode")

        received = d.pop("received")

        added = d.pop("added")

        already_listed = d.pop("already_listed")

        do_not_call_import = cls(
            object_=object_,
            livemode=livemode,
            received=received,
            added=added,
            already_listed=already_listed,
        )


        do_not_call_import.additional_properties = d
        return do_not_call_import

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
