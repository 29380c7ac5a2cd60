from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="UpdateAccountBodyPayments")



@_attrs_define
class UpdateAccountBodyPayments:
    """ 
        Attributes:
            connector (None | str):
     """

    connector: None | str





    def to_dict(self) -> dict[str, Any]:
        connector: None | str
        connector = self.connector


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "connector": connector,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_connector(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connector = _parse_connector(d.pop("connector"))


        update_account_body_payments = cls(
            connector=connector,
        )

        return update_account_body_payments

