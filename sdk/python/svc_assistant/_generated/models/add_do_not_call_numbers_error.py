from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.add_do_not_call_numbers_error_detail import AddDoNotCallNumbersErrorDetail





T = TypeVar("T", bound="AddDoNotCallNumbersError")



@_attrs_define
class AddDoNotCallNumbersError:
    """ An error `addDoNotCallNumbers` answers: `error.code` is one of its codes.

        Attributes:
            error (AddDoNotCallNumbersErrorDetail): The `error` of a failed `addDoNotCallNumbers`.
     """

    error: AddDoNotCallNumbersErrorDetail
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.add_do_not_call_numbers_error_detail import AddDoNotCallNumbersErrorDetail # noqa: PLC0415
        error = self.error.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "error": error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.add_do_not_call_numbers_error_detail import AddDoNotCallNumbersErrorDetail # noqa: PLC0415
        d = dict(src_dict)
        error = AddDoNotCallNumbersErrorDetail.from_dict(d.pop("error"))




        add_do_not_call_numbers_error = cls(
            error=error,
        )


        add_do_not_call_numbers_error.additional_properties = d
        return add_do_not_call_numbers_error

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
