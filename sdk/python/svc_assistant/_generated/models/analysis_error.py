from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="AnalysisError")



@_attrs_define
class AnalysisError:
    """ A failed analysis: why, and the last answer’s validation errors.

        Attributes:
            message (str):
            validation_errors (list[str]):
     """

    message: str
    validation_errors: list[str]





    def to_dict(self) -> dict[str, Any]:
        message = self.message

        validation_errors = self.validation_errors




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "message": message,
            "validation_errors": validation_errors,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message = d.pop("message")

        validation_errors = cast(list[str], d.pop("validation_errors"))


        analysis_error = cls(
            message=message,
            validation_errors=validation_errors,
        )

        return analysis_error

