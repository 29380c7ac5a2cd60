from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_compliance_transfer_legs_item_decision import CallComplianceTransferLegsItemDecision
from ..models.call_compliance_transfer_legs_item_leg import CallComplianceTransferLegsItemLeg
from typing import cast

if TYPE_CHECKING:
  from ..models.call_compliance_transfer_legs_item_rules_item import CallComplianceTransferLegsItemRulesItem





T = TypeVar("T", bound="CallComplianceTransferLegsItem")



@_attrs_define
class CallComplianceTransferLegsItem:
    """ 
        Attributes:
            checked_at (int): When the gate checked, unix seconds (a test-mode call: its clock).
            to (str): The number checked.
            leg (CallComplianceTransferLegsItemLeg): `call`: the call's own dial; `transfer`: a warm transfer's leg.
            decision (CallComplianceTransferLegsItemDecision):
            rules (list[CallComplianceTransferLegsItemRulesItem]):
     """

    checked_at: int
    to: str
    leg: CallComplianceTransferLegsItemLeg
    decision: CallComplianceTransferLegsItemDecision
    rules: list[CallComplianceTransferLegsItemRulesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call_compliance_transfer_legs_item_rules_item import CallComplianceTransferLegsItemRulesItem # noqa: PLC0415
        checked_at = self.checked_at

        to = self.to

        leg = self.leg.value

        decision = self.decision.value

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "checked_at": checked_at,
            "to": to,
            "leg": leg,
            "decision": decision,
            "rules": rules,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call_compliance_transfer_legs_item_rules_item import CallComplianceTransferLegsItemRulesItem # noqa: PLC0415
        d = dict(src_dict)
        checked_at = d.pop("checked_at")

        to = d.pop("to")

        leg = CallComplianceTransferLegsItemLeg(d.pop("leg"))




        decision = CallComplianceTransferLegsItemDecision(d.pop("decision"))




        rules = []
        _rules = d.pop("rules")
        for rules_item_data in (_rules):
            rules_item = CallComplianceTransferLegsItemRulesItem.from_dict(rules_item_data)



            rules.append(rules_item)


        call_compliance_transfer_legs_item = cls(
            checked_at=checked_at,
            to=to,
            leg=leg,
            decision=decision,
            rules=rules,
        )


        call_compliance_transfer_legs_item.additional_properties = d
        return call_compliance_transfer_legs_item

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
