from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_agent_body_turn_taking_interrupt_sensitivity import CreateAgentBodyTurnTakingInterruptSensitivity
from ..models.create_agent_body_turn_taking_interruptible import CreateAgentBodyTurnTakingInterruptible
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_agent_body_turn_taking_backchannels import CreateAgentBodyTurnTakingBackchannels
  from ..models.create_agent_body_turn_taking_turn_detection_type_0 import CreateAgentBodyTurnTakingTurnDetectionType0
  from ..models.create_agent_body_turn_taking_turn_detection_type_1 import CreateAgentBodyTurnTakingTurnDetectionType1





T = TypeVar("T", bound="CreateAgentBodyTurnTaking")



@_attrs_define
class CreateAgentBodyTurnTaking:
    """ How the assistant takes turns on phone calls: the pipeline engine's interruption settings and speech hints, the
    realtime engine's turn detection, and backchannels. Null or absent: each engine's defaults.

        Attributes:
            interruptible (CreateAgentBodyTurnTakingInterruptible | Unset): Pipeline engine: what interrupts the assistant's
                speech (ConversationRelay `interruptible`, the welcome greeting too): `none`, `dtmf` (keys), `speech`, `any`.
                Takes precedence over the agent's top-level `interruptible`.
            preemptible (bool | Unset): Pipeline engine: whether the assistant's next words may cut what it is saying
                (ConversationRelay `preemptible`, default true here).
            interrupt_sensitivity (CreateAgentBodyTurnTakingInterruptSensitivity | Unset): Pipeline engine: how readily
                caller speech interrupts (ConversationRelay `interruptSensitivity`).
            speech_model (str | Unset): Pipeline engine: the recognition provider's model (ConversationRelay `speechModel`),
                e.g. `nova-3-general`.
            hints (list[str] | Unset): Pipeline engine: speech hints, added to `transcription.hints` (ConversationRelay
                `hints`).
            turn_detection (CreateAgentBodyTurnTakingTurnDetectionType0 | CreateAgentBodyTurnTakingTurnDetectionType1 |
                Unset): Realtime engine: the session's turn detection: `server_vad` (`threshold`, `prefix_padding_ms`,
                `silence_duration_ms`) or `semantic_vad` (`eagerness`). Absent: `server_vad` with OpenAI's defaults.
            interrupt_response (bool | Unset): Realtime engine: whether the caller's speech cancels the answer being spoken
                (default true).
            backchannels (CreateAgentBodyTurnTakingBackchannels | Unset): Per language (`en`, `es`, `en-GB`…): words that
                only say "I am listening". Said alone while the assistant speaks, they neither interrupt it nor start a new
                model turn; the transcript keeps them, marked `backchannel: true`. A language given replaces its default list
                (`[]`: none); absent: the defaults (en: mhmm, uh-huh, yeah, ok, right…; es, fr, de, it, pt, nl likewise).
     """

    interruptible: CreateAgentBodyTurnTakingInterruptible | Unset = UNSET
    preemptible: bool | Unset = UNSET
    interrupt_sensitivity: CreateAgentBodyTurnTakingInterruptSensitivity | Unset = UNSET
    speech_model: str | Unset = UNSET
    hints: list[str] | Unset = UNSET
    turn_detection: CreateAgentBodyTurnTakingTurnDetectionType0 | CreateAgentBodyTurnTakingTurnDetectionType1 | Unset = UNSET
    interrupt_response: bool | Unset = UNSET
    backchannels: CreateAgentBodyTurnTakingBackchannels | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_agent_body_turn_taking_backchannels import CreateAgentBodyTurnTakingBackchannels # noqa: PLC0415
        from ..models.create_agent_body_turn_taking_turn_detection_type_0 import CreateAgentBodyTurnTakingTurnDetectionType0 # noqa: PLC0415
        from ..models.create_agent_body_turn_taking_turn_detection_type_1 import CreateAgentBodyTurnTakingTurnDetectionType1 # noqa: PLC0415
        interruptible: str | Unset = UNSET
        if not isinstance(self.interruptible, Unset):
            interruptible = self.interruptible.value


        preemptible = self.preemptible

        interrupt_sensitivity: str | Unset = UNSET
        if not isinstance(self.interrupt_sensitivity, Unset):
            interrupt_sensitivity = self.interrupt_sensitivity.value


        speech_model = self.speech_model

        hints: list[str] | Unset = UNSET
        if not isinstance(self.hints, Unset):
            hints = self.hints



        turn_detection: dict[str, Any] | Unset
        if isinstance(self.turn_detection, Unset):
            turn_detection = UNSET
        elif isinstance(self.turn_detection, CreateAgentBodyTurnTakingTurnDetectionType0):
            turn_detection = self.turn_detection.to_dict()
        else:
            turn_detection = self.turn_detection.to_dict()


        interrupt_response = self.interrupt_response

        backchannels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.backchannels, Unset):
            backchannels = self.backchannels.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if interruptible is not UNSET:
            field_dict["interruptible"] = interruptible
        if preemptible is not UNSET:
            field_dict["preemptible"] = preemptible
        if interrupt_sensitivity is not UNSET:
            field_dict["interrupt_sensitivity"] = interrupt_sensitivity
        if speech_model is not UNSET:
            field_dict["speech_model"] = speech_model
        if hints is not UNSET:
            field_dict["hints"] = hints
        if turn_detection is not UNSET:
            field_dict["turn_detection"] = turn_detection
        if interrupt_response is not UNSET:
            field_dict["interrupt_response"] = interrupt_response
        if backchannels is not UNSET:
            field_dict["backchannels"] = backchannels

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_agent_body_turn_taking_backchannels import CreateAgentBodyTurnTakingBackchannels # noqa: PLC0415
        from ..models.create_agent_body_turn_taking_turn_detection_type_0 import CreateAgentBodyTurnTakingTurnDetectionType0 # noqa: PLC0415
        from ..models.create_agent_body_turn_taking_turn_detection_type_1 import CreateAgentBodyTurnTakingTurnDetectionType1 # noqa: PLC0415
        d = dict(src_dict)
        _interruptible = d.pop("interruptible", UNSET)
        interruptible: CreateAgentBodyTurnTakingInterruptible | Unset
        if isinstance(_interruptible,  Unset):
            interruptible = UNSET
        else:
            interruptible = CreateAgentBodyTurnTakingInterruptible(_interruptible)




        preemptible = d.pop("preemptible", UNSET)

        _interrupt_sensitivity = d.pop("interrupt_sensitivity", UNSET)
        interrupt_sensitivity: CreateAgentBodyTurnTakingInterruptSensitivity | Unset
        if isinstance(_interrupt_sensitivity,  Unset):
            interrupt_sensitivity = UNSET
        else:
            interrupt_sensitivity = CreateAgentBodyTurnTakingInterruptSensitivity(_interrupt_sensitivity)




        speech_model = d.pop("speech_model", UNSET)

        hints = cast(list[str], d.pop("hints", UNSET))


        def _parse_turn_detection(data: object) -> CreateAgentBodyTurnTakingTurnDetectionType0 | CreateAgentBodyTurnTakingTurnDetectionType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                turn_detection_type_0 = CreateAgentBodyTurnTakingTurnDetectionType0.from_dict(data)



                return turn_detection_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            turn_detection_type_1 = CreateAgentBodyTurnTakingTurnDetectionType1.from_dict(data)



            return turn_detection_type_1

        turn_detection = _parse_turn_detection(d.pop("turn_detection", UNSET))


        interrupt_response = d.pop("interrupt_response", UNSET)

        _backchannels = d.pop("backchannels", UNSET)
        backchannels: CreateAgentBodyTurnTakingBackchannels | Unset
        if isinstance(_backchannels,  Unset):
            backchannels = UNSET
        else:
            backchannels = CreateAgentBodyTurnTakingBackchannels.from_dict(_backchannels)




        create_agent_body_turn_taking = cls(
            interruptible=interruptible,
            preemptible=preemptible,
            interrupt_sensitivity=interrupt_sensitivity,
            speech_model=speech_model,
            hints=hints,
            turn_detection=turn_detection,
            interrupt_response=interrupt_response,
            backchannels=backchannels,
        )

        return create_agent_body_turn_taking

