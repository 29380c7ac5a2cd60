from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_account_body_calling_hours_type_0 import UpdateAccountBodyCallingHoursType0
  from ..models.update_account_body_dialing_permissions import UpdateAccountBodyDialingPermissions
  from ..models.update_account_body_payments import UpdateAccountBodyPayments
  from ..models.update_account_body_redaction import UpdateAccountBodyRedaction
  from ..models.update_account_body_retention import UpdateAccountBodyRetention





T = TypeVar("T", bound="UpdateAccountBody")



@_attrs_define
class UpdateAccountBody:
    """ 
        Attributes:
            retention (UpdateAccountBodyRetention | Unset):
            redaction (UpdateAccountBodyRedaction | Unset):
            payments (UpdateAccountBodyPayments | Unset):
            ai_disclosure (bool | Unset): false: calls no longer open by saying they are an automated assistant (the mode's
                calls created from then on).
            calling_hours (None | Unset | UpdateAccountBodyCallingHoursType0):
            dialing_permissions (UpdateAccountBodyDialingPermissions | Unset): Where calls and transfers may go (both
                modes). Premium-rate, shared-cost, personal and non-geographic (satellite) numbers stay refused unless the
                operator allows them.
     """

    retention: UpdateAccountBodyRetention | Unset = UNSET
    redaction: UpdateAccountBodyRedaction | Unset = UNSET
    payments: UpdateAccountBodyPayments | Unset = UNSET
    ai_disclosure: bool | Unset = UNSET
    calling_hours: None | Unset | UpdateAccountBodyCallingHoursType0 = UNSET
    dialing_permissions: UpdateAccountBodyDialingPermissions | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_account_body_calling_hours_type_0 import UpdateAccountBodyCallingHoursType0 # noqa: PLC0415
        from ..models.update_account_body_dialing_permissions import UpdateAccountBodyDialingPermissions # noqa: PLC0415
        from ..models.update_account_body_payments import UpdateAccountBodyPayments # noqa: PLC0415
        from ..models.update_account_body_redaction import UpdateAccountBodyRedaction # noqa: PLC0415
        from ..models.update_account_body_retention import UpdateAccountBodyRetention # noqa: PLC0415
        retention: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retention, Unset):
            retention = self.retention.to_dict()

        redaction: dict[str, Any] | Unset = UNSET
        if not isinstance(self.redaction, Unset):
            redaction = self.redaction.to_dict()

        payments: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payments, Unset):
            payments = self.payments.to_dict()

        ai_disclosure = self.ai_disclosure

        calling_hours: dict[str, Any] | None | Unset
        if isinstance(self.calling_hours, Unset):
            calling_hours = UNSET
        elif isinstance(self.calling_hours, UpdateAccountBodyCallingHoursType0):
            calling_hours = self.calling_hours.to_dict()
        else:
            calling_hours = self.calling_hours

        dialing_permissions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.dialing_permissions, Unset):
            dialing_permissions = self.dialing_permissions.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if retention is not UNSET:
            field_dict["retention"] = retention
        if redaction is not UNSET:
            field_dict["redaction"] = redaction
        if payments is not UNSET:
            field_dict["payments"] = payments
        if ai_disclosure is not UNSET:
            field_dict["ai_disclosure"] = ai_disclosure
        if calling_hours is not UNSET:
            field_dict["calling_hours"] = calling_hours
        if dialing_permissions is not UNSET:
            field_dict["dialing_permissions"] = dialing_permissions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_account_body_calling_hours_type_0 import UpdateAccountBodyCallingHoursType0 # noqa: PLC0415
        from ..models.update_account_body_dialing_permissions import UpdateAccountBodyDialingPermissions # noqa: PLC0415
        from ..models.update_account_body_payments import UpdateAccountBodyPayments # noqa: PLC0415
        from ..models.update_account_body_redaction import UpdateAccountBodyRedaction # noqa: PLC0415
        from ..models.update_account_body_retention import UpdateAccountBodyRetention # noqa: PLC0415
        d = dict(src_dict)
        _retention = d.pop("retention", UNSET)
        retention: UpdateAccountBodyRetention | Unset
        if isinstance(_retention,  Unset):
            retention = UNSET
        else:
            retention = UpdateAccountBodyRetention.from_dict(_retention)




        _redaction = d.pop("redaction", UNSET)
        redaction: UpdateAccountBodyRedaction | Unset
        if isinstance(_redaction,  Unset):
            redaction = UNSET
        else:
            redaction = UpdateAccountBodyRedaction.from_dict(_redaction)




        _payments = d.pop("payments", UNSET)
        payments: UpdateAccountBodyPayments | Unset
        if isinstance(_payments,  Unset):
            payments = UNSET
        else:
            payments = UpdateAccountBodyPayments.from_dict(_payments)




        ai_disclosure = d.pop("ai_disclosure", UNSET)

        def _parse_calling_hours(data: object) -> None | Unset | UpdateAccountBodyCallingHoursType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calling_hours_type_0 = UpdateAccountBodyCallingHoursType0.from_dict(data)



                return calling_hours_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAccountBodyCallingHoursType0, data)

        calling_hours = _parse_calling_hours(d.pop("calling_hours", UNSET))


        _dialing_permissions = d.pop("dialing_permissions", UNSET)
        dialing_permissions: UpdateAccountBodyDialingPermissions | Unset
        if isinstance(_dialing_permissions,  Unset):
            dialing_permissions = UNSET
        else:
            dialing_permissions = UpdateAccountBodyDialingPermissions.from_dict(_dialing_permissions)




        update_account_body = cls(
            retention=retention,
            redaction=redaction,
            payments=payments,
            ai_disclosure=ai_disclosure,
            calling_hours=calling_hours,
            dialing_permissions=dialing_permissions,
        )

        return update_account_body

