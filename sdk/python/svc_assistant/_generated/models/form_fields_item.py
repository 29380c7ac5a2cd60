from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.form_fields_item_type import FormFieldsItemType
from typing import cast






T = TypeVar("T", bound="FormFieldsItem")



@_attrs_define
class FormFieldsItem:
    """ 
        Attributes:
            key (str):
            type_ (FormFieldsItemType):
            description (None | str):
            required (bool):
            options (list[str] | None):
     """

    key: str
    type_: FormFieldsItemType
    description: None | str
    required: bool
    options: list[str] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        key = self.key

        type_ = self.type_.value

        description: None | str
        description = self.description

        required = self.required

        options: list[str] | None
        if isinstance(self.options, list):
            options = self.options


        else:
            options = self.options


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "key": key,
            "type": type_,
            "description": description,
            "required": required,
            "options": options,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        type_ = FormFieldsItemType(d.pop("type"))




        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        required = d.pop("required")

        def _parse_options(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                options_type_0 = cast(list[str], data)

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        options = _parse_options(d.pop("options"))


        form_fields_item = cls(
            key=key,
            type_=type_,
            description=description,
            required=required,
            options=options,
        )


        form_fields_item.additional_properties = d
        return form_fields_item

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
