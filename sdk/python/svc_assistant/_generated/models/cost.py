from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.cost_source import CostSource
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="Cost")



@_attrs_define
class Cost:
    """ What a call, a conversation or an analysis cost, in integer micro-units (millionths) of `currency`, computed once
    when it ended from the price table then in force (or Twilio's reported price); a later table never changes it.

        Attributes:
            currency (Literal['usd']):
            total_micros (int): The sum of the parts (a null `model_micros` counts 0: then a lower bound).
            telephony_micros (int): Twilio's minutes (its reported price when it gave one, else the table's).
            model_micros (int | None): The model tokens at the table prices; null when a model used is missing from the
                table.
            recording_micros (int):
            platform_micros (int): The platform's own per-minute fee.
            source (CostSource): `twilio`: telephony is Twilio's reported price of the call; `table`: the price table's.
     """

    currency: Literal['usd']
    total_micros: int
    telephony_micros: int
    model_micros: int | None
    recording_micros: int
    platform_micros: int
    source: CostSource
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        total_micros = self.total_micros

        telephony_micros = self.telephony_micros

        model_micros: int | None
        model_micros = self.model_micros

        recording_micros = self.recording_micros

        platform_micros = self.platform_micros

        source = self.source.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "currency": currency,
            "total_micros": total_micros,
            "telephony_micros": telephony_micros,
            "model_micros": model_micros,
            "recording_micros": recording_micros,
            "platform_micros": platform_micros,
            "source": source,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency = cast(Literal['usd'] , d.pop("currency"))
        if currency != 'usd':
            raise ValueError(f"currency must match const 'usd', got '{currency}'")

        total_micros = d.pop("total_micros")

        telephony_micros = d.pop("telephony_micros")

        def _parse_model_micros(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        model_micros = _parse_model_micros(d.pop("model_micros"))


        recording_micros = d.pop("recording_micros")

        platform_micros = d.pop("platform_micros")

        source = CostSource(d.pop("source"))




        cost = cls(
            currency=currency,
            total_micros=total_micros,
            telephony_micros=telephony_micros,
            model_micros=model_micros,
            recording_micros=recording_micros,
            platform_micros=platform_micros,
            source=source,
        )


        cost.additional_properties = d
        return cost

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
