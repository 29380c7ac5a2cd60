from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.erasure_subject_type import ErasureSubjectType
from ..types import UNSET, Unset






T = TypeVar("T", bound="ErasureSubject")



@_attrs_define
class ErasureSubject:
    """ 
        Attributes:
            type_ (ErasureSubjectType):
            contact (str | Unset): The erased contact (`cont_…`), for `type: contact`.
            phone (str | Unset): The number, masked (`+1415•••0123`), for `type: phone`.
            external_id (str | Unset): The external id, masked, for `type: external_id`.
     """

    type_: ErasureSubjectType
    contact: str | Unset = UNSET
    phone: str | Unset = UNSET
    external_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        contact = self.contact

        phone = self.phone

        external_id = self.external_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
        })
        if contact is not UNSET:
            field_dict["contact"] = contact
        if phone is not UNSET:
            field_dict["phone"] = phone
        if external_id is not UNSET:
            field_dict["external_id"] = external_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = ErasureSubjectType(d.pop("type"))




        contact = d.pop("contact", UNSET)

        phone = d.pop("phone", UNSET)

        external_id = d.pop("external_id", UNSET)

        erasure_subject = cls(
            type_=type_,
            contact=contact,
            phone=phone,
            external_id=external_id,
        )


        erasure_subject.additional_properties = d
        return erasure_subject

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
