from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateAccountBodyDialingPermissions")



@_attrs_define
class UpdateAccountBodyDialingPermissions:
    """ Where calls and transfers may go (both modes). Premium-rate, shared-cost, personal and non-geographic (satellite)
    numbers stay refused unless the operator allows them.

        Attributes:
            allowed_countries (list[str] | None | Unset): The countries (ISO 3166-1 alpha-2) calls and transfers may reach;
                null: back to the default (the countries of the organization's own numbers, with the operator's default).
            sip_domains (list[str] | Unset): The hosts `sip:` destinations may name (exact match); empty: none.
     """

    allowed_countries: list[str] | None | Unset = UNSET
    sip_domains: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        allowed_countries: list[str] | None | Unset
        if isinstance(self.allowed_countries, Unset):
            allowed_countries = UNSET
        elif isinstance(self.allowed_countries, list):
            allowed_countries = self.allowed_countries


        else:
            allowed_countries = self.allowed_countries

        sip_domains: list[str] | Unset = UNSET
        if not isinstance(self.sip_domains, Unset):
            sip_domains = self.sip_domains




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if allowed_countries is not UNSET:
            field_dict["allowed_countries"] = allowed_countries
        if sip_domains is not UNSET:
            field_dict["sip_domains"] = sip_domains

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_allowed_countries(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_countries_type_0 = cast(list[str], data)

                return allowed_countries_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_countries = _parse_allowed_countries(d.pop("allowed_countries", UNSET))


        sip_domains = cast(list[str], d.pop("sip_domains", UNSET))


        update_account_body_dialing_permissions = cls(
            allowed_countries=allowed_countries,
            sip_domains=sip_domains,
        )

        return update_account_body_dialing_permissions

