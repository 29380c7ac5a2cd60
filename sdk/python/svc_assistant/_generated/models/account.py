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
  from ..models.account_limits import AccountLimits
  from ..models.account_quotas import AccountQuotas
  from ..models.account_redaction import AccountRedaction
  from ..models.account_retention import AccountRetention





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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.account_limits import AccountLimits # noqa: PLC0415
        from ..models.account_quotas import AccountQuotas # noqa: PLC0415
        from ..models.account_redaction import AccountRedaction # noqa: PLC0415
        from ..models.account_retention import AccountRetention # noqa: PLC0415
        id = self.id

        object_ = self.object_

        name = self.name

        livemode = self.livemode

        mode = self.mode.value

        limits = self.limits.to_dict()

        quotas = self.quotas.to_dict()

        retention = self.retention.to_dict()

        redaction = self.redaction.to_dict()


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
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_limits import AccountLimits # noqa: PLC0415
        from ..models.account_quotas import AccountQuotas # noqa: PLC0415
        from ..models.account_redaction import AccountRedaction # noqa: PLC0415
        from ..models.account_retention import AccountRetention # noqa: PLC0415
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
