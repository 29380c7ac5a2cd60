from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.simulation_outcome import SimulationOutcome
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.simulation_transfer import SimulationTransfer





T = TypeVar("T", bound="Simulation")



@_attrs_define
class Simulation:
    """ Test mode: how a simulated call goes (what the caller says, the outcome, timings, a transfer).

        Attributes:
            caller (list[str] | Unset): The caller's lines, in order.
            outcome (SimulationOutcome | Unset):
            ring_seconds (float | Unset):
            pause_seconds (float | Unset):
            transfer (SimulationTransfer | Unset):
     """

    caller: list[str] | Unset = UNSET
    outcome: SimulationOutcome | Unset = UNSET
    ring_seconds: float | Unset = UNSET
    pause_seconds: float | Unset = UNSET
    transfer: SimulationTransfer | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.simulation_transfer import SimulationTransfer # noqa: PLC0415
        caller: list[str] | Unset = UNSET
        if not isinstance(self.caller, Unset):
            caller = self.caller



        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value


        ring_seconds = self.ring_seconds

        pause_seconds = self.pause_seconds

        transfer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.transfer, Unset):
            transfer = self.transfer.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if caller is not UNSET:
            field_dict["caller"] = caller
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if ring_seconds is not UNSET:
            field_dict["ring_seconds"] = ring_seconds
        if pause_seconds is not UNSET:
            field_dict["pause_seconds"] = pause_seconds
        if transfer is not UNSET:
            field_dict["transfer"] = transfer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.simulation_transfer import SimulationTransfer # noqa: PLC0415
        d = dict(src_dict)
        caller = cast(list[str], d.pop("caller", UNSET))


        _outcome = d.pop("outcome", UNSET)
        outcome: SimulationOutcome | Unset
        if isinstance(_outcome,  Unset):
            outcome = UNSET
        else:
            outcome = SimulationOutcome(_outcome)




        ring_seconds = d.pop("ring_seconds", UNSET)

        pause_seconds = d.pop("pause_seconds", UNSET)

        _transfer = d.pop("transfer", UNSET)
        transfer: SimulationTransfer | Unset
        if isinstance(_transfer,  Unset):
            transfer = UNSET
        else:
            transfer = SimulationTransfer.from_dict(_transfer)




        simulation = cls(
            caller=caller,
            outcome=outcome,
            ring_seconds=ring_seconds,
            pause_seconds=pause_seconds,
            transfer=transfer,
        )


        simulation.additional_properties = d
        return simulation

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
