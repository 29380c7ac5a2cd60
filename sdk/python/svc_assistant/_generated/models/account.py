from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.account_mode import AccountMode
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.account_calling_hours import AccountCallingHours
  from ..models.account_limits import AccountLimits
  from ..models.account_payments import AccountPayments
  from ..models.account_quotas import AccountQuotas
  from ..models.account_redaction import AccountRedaction
  from ..models.account_retention import AccountRetention
  from ..models.dialing_permissions import DialingPermissions





T = TypeVar("T", bound="Account")



@_attrs_define
class Account:
    """ The key's organization as it sees itself in the key's mode: its name and limits.

        Attributes:
            id (str):
            object_ (Literal['account']):
            name (str):
            livemode (bool):
            mode (AccountMode):
            limits (AccountLimits):
            quotas (AccountQuotas):
            retention (AccountRetention):
            redaction (AccountRedaction):
            payments (AccountPayments):
            ai_disclosure (bool): Every call's first sentence says the caller is speaking with an automated assistant, in
                the agent's language (EU AI Act art. 50). On by default.
            calling_hours (AccountCallingHours | None): The organization's calling hours (local `HH:MM` at the callee, both
                modes): they narrow the country defaults (US/CA 08:00-21:00, GB 08:00-21:00 weekdays and 09:00-21:00 weekends,
                others 09:00-20:00), never widen them. Null: the defaults.
            dialing_permissions (DialingPermissions): Where the organization's calls and transfers may go (every dial: API
                calls, campaigns, callbacks, scheduled calls, transfers, warm-transfer legs, inbound overflow). A destination
                outside them is refused: 400 `destination_not_allowed` from the API, a tool error for the assistant on a call,
                `end_reason: "destination_not_allowed"` for a call that would dial it.
     """

    id: str
    object_: Literal['account']
    name: str
    livemode: bool
    mode: AccountMode
    limits: AccountLimits
    quotas: AccountQuotas
    retention: AccountRetention
    redaction: AccountRedaction
    payments: AccountPayments
    ai_disclosure: bool
    calling_hours: AccountCallingHours | None
    dialing_permissions: DialingPermissions
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.account_calling_hours import AccountCallingHours # noqa: PLC0415
        from ..models.account_limits import AccountLimits # noqa: PLC0415
        from ..models.account_payments import AccountPayments # noqa: PLC0415
        from ..models.account_quotas import AccountQuotas # noqa: PLC0415
        from ..models.account_redaction import AccountRedaction # noqa: PLC0415
        from ..models.account_retention import AccountRetention # noqa: PLC0415
        from ..models.dialing_permissions import DialingPermissions # noqa: PLC0415
        id = self.id

        object_ = self.object_

        name = self.name

        livemode = self.livemode

        mode = self.mode.value

        limits = self.limits.to_dict()

        quotas = self.quotas.to_dict()

        retention = self.retention.to_dict()

        redaction = self.redaction.to_dict()

        payments = self.payments.to_dict()

        ai_disclosure = self.ai_disclosure

        calling_hours: dict[str, Any] | None
        if isinstance(self.calling_hours, AccountCallingHours):
            calling_hours = self.calling_hours.to_dict()
        else:
            calling_hours = self.calling_hours

        dialing_permissions = self.dialing_permissions.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "name": name,
            "livemode": livemode,
            "mode": mode,
            "limits": limits,
            "quotas": quotas,
            "retention": retention,
            "redaction": redaction,
            "payments": payments,
            "ai_disclosure": ai_disclosure,
            "calling_hours": calling_hours,
            "dialing_permissions": dialing_permissions,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_calling_hours import AccountCallingHours # noqa: PLC0415
        from ..models.account_limits import AccountLimits # noqa: PLC0415
        from ..models.account_payments import AccountPayments # noqa: PLC0415
        from ..models.account_quotas import AccountQuotas # noqa: PLC0415
        from ..models.account_redaction import AccountRedaction # noqa: PLC0415
        from ..models.account_retention import AccountRetention # noqa: PLC0415
        from ..models.dialing_permissions import DialingPermissions # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['account'] , d.pop("object"))
        if object_ != 'account':
            raise ValueError(f"object must match const 'account', got '{object_}'")

        name = d.pop("name")

        livemode = d.pop("livemode")

        mode = AccountMode(d.pop("mode"))




        limits = AccountLimits.from_dict(d.pop("limits"))




        quotas = AccountQuotas.from_dict(d.pop("quotas"))




        retention = AccountRetention.from_dict(d.pop("retention"))




        redaction = AccountRedaction.from_dict(d.pop("redaction"))




        payments = AccountPayments.from_dict(d.pop("payments"))




        ai_disclosure = d.pop("ai_disclosure")

        def _parse_calling_hours(data: object) -> AccountCallingHours | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calling_hours_type_0 = AccountCallingHours.from_dict(data)



                return calling_hours_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountCallingHours | None, data)

        calling_hours = _parse_calling_hours(d.pop("calling_hours"))


        dialing_permissions = DialingPermissions.from_dict(d.pop("dialing_permissions"))




        account = cls(
            id=id,
            object_=object_,
            name=name,
            livemode=livemode,
            mode=mode,
            limits=limits,
            quotas=quotas,
            retention=retention,
            redaction=redaction,
            payments=payments,
            ai_disclosure=ai_disclosure,
            calling_hours=calling_hours,
            dialing_permissions=dialing_permissions,
        )


        account.additional_properties = d
        return account

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
