from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.dialing_permissions_allowed_countries_source import DialingPermissionsAllowedCountriesSource
from ..models.dialing_permissions_allowed_number_types_item import DialingPermissionsAllowedNumberTypesItem
from typing import cast






T = TypeVar("T", bound="DialingPermissions")



@_attrs_define
class DialingPermissions:
    """ Where the organization's calls and transfers may go (every dial: API calls, campaigns, callbacks, scheduled calls,
    transfers, warm-transfer legs, inbound overflow). A destination outside them is refused: 400
    `destination_not_allowed` from the API, a tool error for the assistant on a call, `end_reason:
    "destination_not_allowed"` for a call that would dial it.

        Attributes:
            allowed_countries (list[str] | None): ISO 3166-1 alpha-2 countries whose numbers may be called. Unless set: the
                countries of the organization's own numbers in this mode with the operator's `DEFAULT_ALLOWED_COUNTRIES`;
                without numbers, live mode: the operator's `DEFAULT_ALLOWED_COUNTRIES` alone (none unless the operator set it);
                test mode: null, every country.
            allowed_countries_source (DialingPermissionsAllowedCountriesSource): `account`: set with `POST /v1/account`;
                `phone_numbers`: the countries of your numbers (and the operator default); `operator_default`: no numbers, the
                operator's `DEFAULT_ALLOWED_COUNTRIES`; `test_mode`: every country (simulated calls cost nothing).
            sip_domains (list[str]): Hosts `sip:` destinations may name (exact match of the URI's host); empty: no `sip:`
                destination.
            allowed_number_types (list[DialingPermissionsAllowedNumberTypesItem]): High-cost number types the operator
                allows this organization (`svcctl dialing allow-number-types`); every other one of `premium_rate`,
                `shared_cost`, `personal_number` and `non_geographic` (satellite and international networks: +800, +808, +870,
                +881, +882, +883, +979) is refused. Types are libphonenumber's.
     """

    allowed_countries: list[str] | None
    allowed_countries_source: DialingPermissionsAllowedCountriesSource
    sip_domains: list[str]
    allowed_number_types: list[DialingPermissionsAllowedNumberTypesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        allowed_countries: list[str] | None
        if isinstance(self.allowed_countries, list):
            allowed_countries = self.allowed_countries


        else:
            allowed_countries = self.allowed_countries

        allowed_countries_source = self.allowed_countries_source.value

        sip_domains = self.sip_domains



        allowed_number_types = []
        for allowed_number_types_item_data in self.allowed_number_types:
            allowed_number_types_item = allowed_number_types_item_data.value
            allowed_number_types.append(allowed_number_types_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "allowed_countries": allowed_countries,
            "allowed_countries_source": allowed_countries_source,
            "sip_domains": sip_domains,
            "allowed_number_types": allowed_number_types,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_allowed_countries(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_countries_type_0 = cast(list[str], data)

                return allowed_countries_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        allowed_countries = _parse_allowed_countries(d.pop("allowed_countries"))


        allowed_countries_source = DialingPermissionsAllowedCountriesSource(d.pop("allowed_countries_source"))




        sip_domains = cast(list[str], d.pop("sip_domains"))


        allowed_number_types = []
        _allowed_number_types = d.pop("allowed_number_types")
        for allowed_number_types_item_data in (_allowed_number_types):
            allowed_number_types_item = DialingPermissionsAllowedNumberTypesItem(allowed_number_types_item_data)



            allowed_number_types.append(allowed_number_types_item)


        dialing_permissions = cls(
            allowed_countries=allowed_countries,
            allowed_countries_source=allowed_countries_source,
            sip_domains=sip_domains,
            allowed_number_types=allowed_number_types,
        )


        dialing_permissions.additional_properties = d
        return dialing_permissions

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
