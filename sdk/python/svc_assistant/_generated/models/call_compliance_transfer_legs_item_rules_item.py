from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_compliance_transfer_legs_item_rules_item_refusal import CallComplianceTransferLegsItemRulesItemRefusal
from ..models.call_compliance_transfer_legs_item_rules_item_result import CallComplianceTransferLegsItemRulesItemResult
from ..models.call_compliance_transfer_legs_item_rules_item_rule import CallComplianceTransferLegsItemRulesItemRule
from ..models.call_compliance_transfer_legs_item_rules_item_source import CallComplianceTransferLegsItemRulesItemSource
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="CallComplianceTransferLegsItemRulesItem")



@_attrs_define
class CallComplianceTransferLegsItemRulesItem:
    """ 
        Attributes:
            rule (CallComplianceTransferLegsItemRulesItemRule):
            result (CallComplianceTransferLegsItemRulesItemResult): `calling_hours`: `open` or `closed`; `do_not_call`:
                `clear` or `listed`; `dialing_permissions` (the account's `dialing_permissions`): `allowed` or `not_allowed`.
            detail (str): In words: the window and its source (TCPA, Ofcom, overrides), or the list.
            local (str | Unset): The callee's local time(s) at the check.
            zone (None | str | Unset): The callee's zone; null when not known precisely.
            zones (list[str] | Unset): Every zone the window was checked in.
            assumed (Literal['country_most_restrictive'] | Unset): The zone was not known precisely: the country's most
                restrictive window in every zone applied.
            opens_at (int | None | Unset): Closed: when the window next opens (null: not within 8 days).
            enforced (bool | Unset): Closed: false when only recorded (a test rig with `CALLING_HOURS_ENFORCEMENT=record`).
            source (CallComplianceTransferLegsItemRulesItemSource | Unset): Listed: which list.
            refusal (CallComplianceTransferLegsItemRulesItemRefusal | Unset): `dialing_permissions` not allowed: which
                permission refused the number (`country_not_allowed`, `number_type_not_allowed`, …).
     """

    rule: CallComplianceTransferLegsItemRulesItemRule
    result: CallComplianceTransferLegsItemRulesItemResult
    detail: str
    local: str | Unset = UNSET
    zone: None | str | Unset = UNSET
    zones: list[str] | Unset = UNSET
    assumed: Literal['country_most_restrictive'] | Unset = UNSET
    opens_at: int | None | Unset = UNSET
    enforced: bool | Unset = UNSET
    source: CallComplianceTransferLegsItemRulesItemSource | Unset = UNSET
    refusal: CallComplianceTransferLegsItemRulesItemRefusal | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        rule = self.rule.value

        result = self.result.value

        detail = self.detail

        local = self.local

        zone: None | str | Unset
        if isinstance(self.zone, Unset):
            zone = UNSET
        else:
            zone = self.zone

        zones: list[str] | Unset = UNSET
        if not isinstance(self.zones, Unset):
            zones = self.zones



        assumed = self.assumed

        opens_at: int | None | Unset
        if isinstance(self.opens_at, Unset):
            opens_at = UNSET
        else:
            opens_at = self.opens_at

        enforced = self.enforced

        source: str | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source.value


        refusal: str | Unset = UNSET
        if not isinstance(self.refusal, Unset):
            refusal = self.refusal.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rule": rule,
            "result": result,
            "detail": detail,
        })
        if local is not UNSET:
            field_dict["local"] = local
        if zone is not UNSET:
            field_dict["zone"] = zone
        if zones is not UNSET:
            field_dict["zones"] = zones
        if assumed is not UNSET:
            field_dict["assumed"] = assumed
        if opens_at is not UNSET:
            field_dict["opens_at"] = opens_at
        if enforced is not UNSET:
            field_dict["enforced"] = enforced
        if source is not UNSET:
            field_dict["source"] = source
        if refusal is not UNSET:
            field_dict["refusal"] = refusal

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rule = CallComplianceTransferLegsItemRulesItemRule(d.pop("rule"))




        result = CallComplianceTransferLegsItemRulesItemResult(d.pop("result"))




        detail = d.pop("detail")

        local = d.pop("local", UNSET)

        def _parse_zone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        zone = _parse_zone(d.pop("zone", UNSET))


        zones = cast(list[str], d.pop("zones", UNSET))


        assumed = cast(Literal['country_most_restrictive'] | Unset , d.pop("assumed", UNSET))
        if assumed != 'country_most_restrictive'and not isinstance(assumed, Unset):
            raise ValueError(f"assumed must match const 'country_most_restrictive', got '{assumed}'")

        def _parse_opens_at(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        opens_at = _parse_opens_at(d.pop("opens_at", UNSET))


        enforced = d.pop("enforced", UNSET)

        _source = d.pop("source", UNSET)
        source: CallComplianceTransferLegsItemRulesItemSource | Unset
        if isinstance(_source,  Unset):
            source = UNSET
        else:
            source = CallComplianceTransferLegsItemRulesItemSource(_source)




        _refusal = d.pop("refusal", UNSET)
        refusal: CallComplianceTransferLegsItemRulesItemRefusal | Unset
        if isinstance(_refusal,  Unset):
            refusal = UNSET
        else:
            refusal = CallComplianceTransferLegsItemRulesItemRefusal(_refusal)




        call_compliance_transfer_legs_item_rules_item = cls(
            rule=rule,
            result=result,
            detail=detail,
            local=local,
            zone=zone,
            zones=zones,
            assumed=assumed,
            opens_at=opens_at,
            enforced=enforced,
            source=source,
            refusal=refusal,
        )


        call_compliance_transfer_legs_item_rules_item.additional_properties = d
        return call_compliance_transfer_legs_item_rules_item

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
