from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ListCallsCreated")



@_attrs_define
class ListCallsCreated:
    """ 
        Attributes:
            gte (int | Unset): At or after.
            gt (int | Unset): After.
            lte (int | Unset): At or before.
            lt (int | Unset): Before.
     """

    gte: int | Unset = UNSET
    gt: int | Unset = UNSET
    lte: int | Unset = UNSET
    lt: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        gte = self.gte

        gt = self.gt

        lte = self.lte

        lt = self.lt


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if gte is not UNSET:
            field_dict["gte"] = gte
        if gt is not UNSET:
            field_dict["gt"] = gt
        if lte is not UNSET:
            field_dict["lte"] = lte
        if lt is not UNSET:
            field_dict["lt"] = lt

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        gte = d.pop("gte", UNSET)

        gt = d.pop("gt", UNSET)

        lte = d.pop("lte", UNSET)

        lt = d.pop("lt", UNSET)

        list_calls_created = cls(
            gte=gte,
            gt=gt,
            lte=lte,
            lt=lt,
        )


        list_calls_created.additional_properties = d
        return list_calls_created

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
