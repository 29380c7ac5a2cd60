from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TwilioPayResultBody")



@_attrs_define
class TwilioPayResultBody:
    """ 
        Attributes:
            call_sid (str | Unset): The call's SID at Twilio (CA…).
            result (str | Unset): success, payment-connector-error, too-many-failed-attempts, caller-interrupted-with-star,
                caller-hung-up, …
            payment_card_number (str | Unset): The card number, masked by Twilio (only its last four digits are kept).
            payment_confirmation_code (str | Unset): The processor's confirmation code.
     """

    call_sid: str | Unset = UNSET
    result: str | Unset = UNSET
    payment_card_number: str | Unset = UNSET
    payment_confirmation_code: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        call_sid = self.call_sid

        result = self.result

        payment_card_number = self.payment_card_number

        payment_confirmation_code = self.payment_confirmation_code


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if call_sid is not UNSET:
            field_dict["CallSid"] = call_sid
        if result is not UNSET:
            field_dict["Result"] = result
        if payment_card_number is not UNSET:
            field_dict["PaymentCardNumber"] = payment_card_number
        if payment_confirmation_code is not UNSET:
            field_dict["PaymentConfirmationCode"] = payment_confirmation_code

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        call_sid = d.pop("CallSid", UNSET)

        result = d.pop("Result", UNSET)

        payment_card_number = d.pop("PaymentCardNumber", UNSET)

        payment_confirmation_code = d.pop("PaymentConfirmationCode", UNSET)

        twilio_pay_result_body = cls(
            call_sid=call_sid,
            result=result,
            payment_card_number=payment_card_number,
            payment_confirmation_code=payment_confirmation_code,
        )


        twilio_pay_result_body.additional_properties = d
        return twilio_pay_result_body

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
