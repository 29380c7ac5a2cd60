from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_compliance_decision import CallComplianceDecision
from ..models.call_compliance_leg import CallComplianceLeg
from typing import cast

if TYPE_CHECKING:
  from ..models.call_compliance_rules_item import CallComplianceRulesItem
  from ..models.call_compliance_transfer_legs_item import CallComplianceTransferLegsItem





T = TypeVar("T", bound="CallCompliance")



@_attrs_define
class CallCompliance:
    """ 
        Attributes:
            checked_at (int): When the gate checked, unix seconds (a test-mode call: its clock).
            to (str): The number checked.
            leg (CallComplianceLeg): `call`: the call's own dial; `transfer`: a warm transfer's leg.
            decision (CallComplianceDecision):
            rules (list[CallComplianceRulesItem]):
            transfer_legs (list[CallComplianceTransferLegsItem]):
     """

    checked_at: int
    to: str
    leg: CallComplianceLeg
    decision: CallComplianceDecision
    rules: list[CallComplianceRulesItem]
    transfer_legs: list[CallComplianceTransferLegsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call_compliance_rules_item import CallComplianceRulesItem # noqa: PLC0415
        from ..models.call_compliance_transfer_legs_item import CallComplianceTransferLegsItem # noqa: PLC0415
        checked_at = self.checked_at

        to = self.to

        leg = self.leg.value

        decision = self.decision.value

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)



        transfer_legs = []
        for transfer_legs_item_data in self.transfer_legs:
            transfer_legs_item = transfer_legs_item_data.to_dict()
            transfer_legs.append(transfer_legs_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "checked_at": checked_at,
            "to": to,
            "leg": leg,
            "decision": decision,
            "rules": rules,
            "transfer_legs": transfer_legs,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call_compliance_rules_item import CallComplianceRulesItem # noqa: PLC0415
        from ..models.call_compliance_transfer_legs_item import CallComplianceTransferLegsItem # noqa: PLC0415
        d = dict(src_dict)
        checked_at = d.pop("checked_at")

        to = d.pop("to")

        leg = CallComplianceLeg(d.pop("leg"))




        decision = CallComplianceDecision(d.pop("decision"))




        rules = []
        _rules = d.pop("rules")
        for rules_item_data in (_rules):
            rules_item = CallComplianceRulesItem.from_dict(rules_item_data)



            rules.append(rules_item)


        transfer_legs = []
        _transfer_legs = d.pop("transfer_legs")
        for transfer_legs_item_data in (_transfer_legs):
            transfer_legs_item = CallComplianceTransferLegsItem.from_dict(transfer_legs_item_data)



            transfer_legs.append(transfer_legs_item)


        call_compliance = cls(
            checked_at=checked_at,
            to=to,
            leg=leg,
            decision=decision,
            rules=rules,
            transfer_legs=transfer_legs,
        )


        call_compliance.additional_properties = d
        return call_compliance

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
