from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.form_fields_item import FormFieldsItem





T = TypeVar("T", bound="Form")



@_attrs_define
class Form:
    """ The fields a bulk campaign fills on every call.

        Attributes:
            id (str):
            object_ (Literal['form']):
            livemode (bool):
            name (str):
            fields (list[FormFieldsItem]):
            created (int): Unix time in seconds.
     """

    id: str
    object_: Literal['form']
    livemode: bool
    name: str
    fields: list[FormFieldsItem]
    created: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.form_fields_item import FormFieldsItem # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name = self.name

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)



        created = self.created


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "fields": fields,
            "created": created,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.form_fields_item import FormFieldsItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['form'] , d.pop("object"))
        if object_ != 'form':
            raise ValueError(f"object must match const 'form', got '{object_}'")

        livemode = d.pop("livemode")

        name = d.pop("name")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = FormFieldsItem.from_dict(fields_item_data)



            fields.append(fields_item)


        created = d.pop("created")

        form = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            fields=fields,
            created=created,
        )


        form.additional_properties = d
        return form

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
