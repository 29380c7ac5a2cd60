from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.create_form_body_fields_item import CreateFormBodyFieldsItem





T = TypeVar("T", bound="CreateFormBody")



@_attrs_define
class CreateFormBody:
    """ 
        Attributes:
            name (str):
            fields (list[CreateFormBodyFieldsItem]):
     """

    name: str
    fields: list[CreateFormBodyFieldsItem]





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_form_body_fields_item import CreateFormBodyFieldsItem # noqa: PLC0415
        name = self.name

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "fields": fields,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_form_body_fields_item import CreateFormBodyFieldsItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = CreateFormBodyFieldsItem.from_dict(fields_item_data)



            fields.append(fields_item)


        create_form_body = cls(
            name=name,
            fields=fields,
        )

        return create_form_body

