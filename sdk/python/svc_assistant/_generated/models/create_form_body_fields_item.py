from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_form_body_fields_item_type import CreateFormBodyFieldsItemType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateFormBodyFieldsItem")



@_attrs_define
class CreateFormBodyFieldsItem:
    """ 
        Attributes:
            key (str):
            type_ (CreateFormBodyFieldsItemType):
            description (str | Unset):
            required (bool | Unset):
            options (list[str] | Unset):
     """

    key: str
    type_: CreateFormBodyFieldsItemType
    description: str | Unset = UNSET
    required: bool | Unset = UNSET
    options: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        key = self.key

        type_ = self.type_.value

        description = self.description

        required = self.required

        options: list[str] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "key": key,
            "type": type_,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if required is not UNSET:
            field_dict["required"] = required
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        type_ = CreateFormBodyFieldsItemType(d.pop("type"))




        description = d.pop("description", UNSET)

        required = d.pop("required", UNSET)

        options = cast(list[str], d.pop("options", UNSET))


        create_form_body_fields_item = cls(
            key=key,
            type_=type_,
            description=description,
            required=required,
            options=options,
        )

        return create_form_body_fields_item

