from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.available_phone_number_type import AvailablePhoneNumberType
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.available_phone_number_capabilities import AvailablePhoneNumberCapabilities





T = TypeVar("T", bound="AvailablePhoneNumber")



@_attrs_define
class AvailablePhoneNumber:
    """ A number for sale: `POST /v1/phone_numbers` with its `number` buys it.

        Attributes:
            object_ (Literal['available_phone_number']):
            number (str): E.164.
            friendly_name (str):
            locality (None | str):
            region (None | str):
            country (str): ISO 3166 alpha-2.
            type_ (AvailablePhoneNumberType):
            capabilities (AvailablePhoneNumberCapabilities):
     """

    object_: Literal['available_phone_number']
    number: str
    friendly_name: str
    locality: None | str
    region: None | str
    country: str
    type_: AvailablePhoneNumberType
    capabilities: AvailablePhoneNumberCapabilities
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.available_phone_number_capabilities import AvailablePhoneNumberCapabilities # noqa: PLC0415
        object_ = self.object_

        number = self.number

        friendly_name = self.friendly_name

        locality: None | str
        locality = self.locality

        region: None | str
        region = self.region

        country = self.country

        type_ = self.type_.value

        capabilities = self.capabilities.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "object": object_,
            "number": number,
            "friendly_name": friendly_name,
            "locality": locality,
            "region": region,
            "country": country,
            "type": type_,
            "capabilities": capabilities,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.available_phone_number_capabilities import AvailablePhoneNumberCapabilities # noqa: PLC0415
        d = dict(src_dict)
        object_ = cast(Literal['available_phone_number'] , d.pop("object"))
        if object_ != 'available_phone_number':
            raise ValueError(f"object must match const 'available_phone_number', got '{object_}'")

        number = d.pop("number")

        friendly_name = d.pop("friendly_name")

        def _parse_locality(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        locality = _parse_locality(d.pop("locality"))


        def _parse_region(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        region = _parse_region(d.pop("region"))


        country = d.pop("country")

        type_ = AvailablePhoneNumberType(d.pop("type"))




        capabilities = AvailablePhoneNumberCapabilities.from_dict(d.pop("capabilities"))




        available_phone_number = cls(
            object_=object_,
            number=number,
            friendly_name=friendly_name,
            locality=locality,
            region=region,
            country=country,
            type_=type_,
            capabilities=capabilities,
        )


        available_phone_number.additional_properties = d
        return available_phone_number

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
