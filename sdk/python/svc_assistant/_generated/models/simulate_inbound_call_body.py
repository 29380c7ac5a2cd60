from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.simulate_inbound_call_body_simulation import SimulateInboundCallBodySimulation





T = TypeVar("T", bound="SimulateInboundCallBody")



@_attrs_define
class SimulateInboundCallBody:
    """ 
        Attributes:
            from_ (str): A valid phone number in E.164 format.
            to (str | Unset): A valid phone number in E.164 format.
            simulation (SimulateInboundCallBodySimulation | Unset):
     """

    from_: str
    to: str | Unset = UNSET
    simulation: SimulateInboundCallBodySimulation | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.simulate_inbound_call_body_simulation import SimulateInboundCallBodySimulation # noqa: PLC0415
        from_ = self.from_

        to = self.to

        simulation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.simulation, Unset):
            simulation = self.simulation.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "from": from_,
        })
        if to is not UNSET:
            field_dict["to"] = to
        if simulation is not UNSET:
            field_dict["simulation"] = simulation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.simulate_inbound_call_body_simulation import SimulateInboundCallBodySimulation # noqa: PLC0415
        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to", UNSET)

        _simulation = d.pop("simulation", UNSET)
        simulation: SimulateInboundCallBodySimulation | Unset
        if isinstance(_simulation,  Unset):
            simulation = UNSET
        else:
            simulation = SimulateInboundCallBodySimulation.from_dict(_simulation)




        simulate_inbound_call_body = cls(
            from_=from_,
            to=to,
            simulation=simulation,
        )

        return simulate_inbound_call_body

