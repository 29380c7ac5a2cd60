from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AddDoNotCallNumbersBody")



@_attrs_define
class AddDoNotCallNumbersBody:
    """ 
        Attributes:
            numbers (list[str] | Unset): Numbers to list, E.164.
            csv (str | Unset): A CSV of numbers: a header row naming a `phone` (or `number`) column, else the first field of
                each row.
     """

    numbers: list[str] | Unset = UNSET
    csv: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        numbers: list[str] | Unset = UNSET
        if not isinstance(self.numbers, Unset):
            numbers = self.numbers



        csv = self.csv


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if numbers is not UNSET:
            field_dict["numbers"] = numbers
        if csv is not UNSET:
            field_dict["csv"] = csv

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        numbers = cast(list[str], d.pop("numbers", UNSET))


        csv = d.pop("csv", UNSET)

        add_do_not_call_numbers_body = cls(
            numbers=numbers,
            csv=csv,
        )

        return add_do_not_call_numbers_body

