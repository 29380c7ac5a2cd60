from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_error_type import ErrorErrorType
from ..types import UNSET, Unset






T = TypeVar("T", bound="ErrorError")



@_attrs_define
class ErrorError:
    """ 
        Attributes:
            type_ (ErrorErrorType):
            code (str):
            message (str):
            param (str | Unset):
            reason (str | Unset): `bundle_invalid` only: what is wrong with the bundle.
            request_id (str | Unset):
     """

    type_: ErrorErrorType
    code: str
    message: str
    param: str | Unset = UNSET
    reason: str | Unset = UNSET
    request_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        code = self.code

        message = self.message

        param = self.param

        reason = self.reason

        request_id = self.request_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "code": code,
            "message": message,
        })
        if param is not UNSET:
            field_dict["param"] = param
        if reason is not UNSET:
            field_dict["reason"] = reason
        if request_id is not UNSET:
            field_dict["request_id"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = ErrorErrorType(d.pop("type"))




        code = d.pop("code")

        message = d.pop("message")

        param = d.pop("param", UNSET)

        reason = d.pop("reason", UNSET)

        request_id = d.pop("request_id", UNSET)

        error_error = cls(
            type_=type_,
            code=code,
            message=message,
            param=param,
            reason=reason,
            request_id=request_id,
        )

        return error_error

