from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_call_body_simulation_outcome import CreateCallBodySimulationOutcome
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_call_body_simulation_barge_ins_item import CreateCallBodySimulationBargeInsItem
  from ..models.create_call_body_simulation_transfer import CreateCallBodySimulationTransfer





T = TypeVar("T", bound="CreateCallBodySimulation")



@_attrs_define
class CreateCallBodySimulation:
    """ 
        Attributes:
            persona (str | Unset): The caller is a model playing this persona (instead of `caller` lines), towards `goal`;
                it hangs up when the goal is met or impossible, or after `max_turns`.
            goal (str | Unset): What the persona wants from the call (required with `persona`).
            max_turns (int | Unset): With `persona`: the caller turns at most (default 20), then the persona hangs up.
            caller (list[str] | Unset):
            outcome (CreateCallBodySimulationOutcome | Unset): `voicemail`: an answering machine picks up, says `caller` as
                its greeting and beeps (handled as the `voicemail` setting says).
            ring_seconds (float | Unset):
            pause_seconds (float | Unset):
            transfer (CreateCallBodySimulationTransfer | Unset): What the person a warm transfer dials does, after
                `after_seconds` (default 0): `answered` (hears the summary, is joined: `transferred`), `no_answer` or `busy`
                (`call.transfer_failed`; the caller is back with the assistant). Absent: answered at once.
            barge_ins (list[CreateCallBodySimulationBargeInsItem] | Unset): Caller lines said over the assistant (barge-in):
                a backchannel ("mhmm") interrupts nothing and starts no answer; any other line cuts the answer to `heard` and
                drops its tool calls not started yet (`end_call` and `transfer_call` too).
     """

    persona: str | Unset = UNSET
    goal: str | Unset = UNSET
    max_turns: int | Unset = UNSET
    caller: list[str] | Unset = UNSET
    outcome: CreateCallBodySimulationOutcome | Unset = UNSET
    ring_seconds: float | Unset = UNSET
    pause_seconds: float | Unset = UNSET
    transfer: CreateCallBodySimulationTransfer | Unset = UNSET
    barge_ins: list[CreateCallBodySimulationBargeInsItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_call_body_simulation_barge_ins_item import CreateCallBodySimulationBargeInsItem # noqa: PLC0415
        from ..models.create_call_body_simulation_transfer import CreateCallBodySimulationTransfer # noqa: PLC0415
        persona = self.persona

        goal = self.goal

        max_turns = self.max_turns

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

        barge_ins: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.barge_ins, Unset):
            barge_ins = []
            for barge_ins_item_data in self.barge_ins:
                barge_ins_item = barge_ins_item_data.to_dict()
                barge_ins.append(barge_ins_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if persona is not UNSET:
            field_dict["persona"] = persona
        if goal is not UNSET:
            field_dict["goal"] = goal
        if max_turns is not UNSET:
            field_dict["max_turns"] = max_turns
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
        if barge_ins is not UNSET:
            field_dict["barge_ins"] = barge_ins

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_call_body_simulation_barge_ins_item import CreateCallBodySimulationBargeInsItem # noqa: PLC0415
        from ..models.create_call_body_simulation_transfer import CreateCallBodySimulationTransfer # noqa: PLC0415
        d = dict(src_dict)
        persona = d.pop("persona", UNSET)

        goal = d.pop("goal", UNSET)

        max_turns = d.pop("max_turns", UNSET)

        caller = cast(list[str], d.pop("caller", UNSET))


        _outcome = d.pop("outcome", UNSET)
        outcome: CreateCallBodySimulationOutcome | Unset
        if isinstance(_outcome,  Unset):
            outcome = UNSET
        else:
            outcome = CreateCallBodySimulationOutcome(_outcome)




        ring_seconds = d.pop("ring_seconds", UNSET)

        pause_seconds = d.pop("pause_seconds", UNSET)

        _transfer = d.pop("transfer", UNSET)
        transfer: CreateCallBodySimulationTransfer | Unset
        if isinstance(_transfer,  Unset):
            transfer = UNSET
        else:
            transfer = CreateCallBodySimulationTransfer.from_dict(_transfer)




        _barge_ins = d.pop("barge_ins", UNSET)
        barge_ins: list[CreateCallBodySimulationBargeInsItem] | Unset = UNSET
        if _barge_ins is not UNSET:
            barge_ins = []
            for barge_ins_item_data in _barge_ins:
                barge_ins_item = CreateCallBodySimulationBargeInsItem.from_dict(barge_ins_item_data)



                barge_ins.append(barge_ins_item)


        create_call_body_simulation = cls(
            persona=persona,
            goal=goal,
            max_turns=max_turns,
            caller=caller,
            outcome=outcome,
            ring_seconds=ring_seconds,
            pause_seconds=pause_seconds,
            transfer=transfer,
            barge_ins=barge_ins,
        )

        return create_call_body_simulation

