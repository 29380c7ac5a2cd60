from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.transcript_turn_outcome import TranscriptTurnOutcome
from ..models.transcript_turn_reason import TranscriptTurnReason
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.redaction import Redaction
  from ..models.transcript_turn_knowledge_item import TranscriptTurnKnowledgeItem
  from ..models.transcript_turn_tool import TranscriptTurnTool
  from ..models.turn_latency import TurnLatency





T = TypeVar("T", bound="TranscriptTurn")



@_attrs_define
class TranscriptTurn:
    """ One turn of a call: what the caller or the assistant said, a tool the assistant called, or a note given to the
    model.

        Attributes:
            role (str): `assistant`, `caller`, `tool` (a tool call and its outcome), `system` (a note of what happened on
                the call, e.g. a warm transfer's progress, seen by the model too), or `note` (a note for the model only: `POST
                /v1/calls/{id}/context`).
            text (str):
            at (int | None):
            offset_ms (int | None):
            author (Literal['api'] | Unset): `api`: said (`POST /v1/calls/{id}/say`) or added (`/context`) through the API;
                absent otherwise.
            tool (TranscriptTurnTool | Unset):
            name (str | Unset): Tool entries: the tool called.
            arguments (Any | Unset): Tool entries: the model's arguments.
            result (str | Unset): Tool entries: what the tool answered (the model saw it).
            error (str | Unset): Tool entries: why the call failed (the model was told).
            status (int | Unset): Tool entries: the HTTP status the tool's server answered.
            duration_ms (int | Unset): Tool entries: how long the call took, ms.
            tool_call_id (str | Unset): Tool entries: `tc_…`, the `Idempotency-Key` of its request.
            knowledge (list[TranscriptTurnKnowledgeItem] | Unset):
            interrupted (bool | Unset): The caller talked over this assistant turn: `text` is only what they heard of it.
            backchannel (bool | Unset): A caller turn that was only a backchannel ("mhmm", "yeah": the agent's
                `turn_taking.backchannels`) said while the assistant spoke: it interrupted nothing and started no answer.
            outcome (TranscriptTurnOutcome | Unset): Tool entries that did not run when the model asked: `dropped` (never
                ran), `held` (a `confirm: true` tool waiting for the caller's spoken yes), `confirmed` (run after that yes).
                Absent: it ran.
            reason (TranscriptTurnReason | Unset): `interrupted`: the caller talked over the answer before its actions
                started; `confirmation_required`: held for a yes; `not_confirmed`: the caller did not say yes.
            redaction (Redaction | Unset): What was replaced before the text was stored (the organization's
                `redaction.enabled`): counts by kind of the `[card]`, `[ssn]`, `[email]` and `[phone]` placeholders. Absent when
                nothing was.
            latency (TurnLatency | Unset): How long the caller waited for this answer, in milliseconds, and where the time
                went. On the first assistant turn of each answer to the caller. Null: the call's engine does not measure it.
     """

    role: str
    text: str
    at: int | None
    offset_ms: int | None
    author: Literal['api'] | Unset = UNSET
    tool: TranscriptTurnTool | Unset = UNSET
    name: str | Unset = UNSET
    arguments: Any | Unset = UNSET
    result: str | Unset = UNSET
    error: str | Unset = UNSET
    status: int | Unset = UNSET
    duration_ms: int | Unset = UNSET
    tool_call_id: str | Unset = UNSET
    knowledge: list[TranscriptTurnKnowledgeItem] | Unset = UNSET
    interrupted: bool | Unset = UNSET
    backchannel: bool | Unset = UNSET
    outcome: TranscriptTurnOutcome | Unset = UNSET
    reason: TranscriptTurnReason | Unset = UNSET
    redaction: Redaction | Unset = UNSET
    latency: TurnLatency | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.redaction import Redaction # noqa: PLC0415
        from ..models.transcript_turn_knowledge_item import TranscriptTurnKnowledgeItem # noqa: PLC0415
        from ..models.transcript_turn_tool import TranscriptTurnTool # noqa: PLC0415
        from ..models.turn_latency import TurnLatency # noqa: PLC0415
        role = self.role

        text = self.text

        at: int | None
        at = self.at

        offset_ms: int | None
        offset_ms = self.offset_ms

        author = self.author

        tool: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tool, Unset):
            tool = self.tool.to_dict()

        name = self.name

        arguments = self.arguments

        result = self.result

        error = self.error

        status = self.status

        duration_ms = self.duration_ms

        tool_call_id = self.tool_call_id

        knowledge: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.knowledge, Unset):
            knowledge = []
            for knowledge_item_data in self.knowledge:
                knowledge_item = knowledge_item_data.to_dict()
                knowledge.append(knowledge_item)



        interrupted = self.interrupted

        backchannel = self.backchannel

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value


        reason: str | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.value


        redaction: dict[str, Any] | Unset = UNSET
        if not isinstance(self.redaction, Unset):
            redaction = self.redaction.to_dict()

        latency: dict[str, Any] | Unset = UNSET
        if not isinstance(self.latency, Unset):
            latency = self.latency.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "role": role,
            "text": text,
            "at": at,
            "offset_ms": offset_ms,
        })
        if author is not UNSET:
            field_dict["author"] = author
        if tool is not UNSET:
            field_dict["tool"] = tool
        if name is not UNSET:
            field_dict["name"] = name
        if arguments is not UNSET:
            field_dict["arguments"] = arguments
        if result is not UNSET:
            field_dict["result"] = result
        if error is not UNSET:
            field_dict["error"] = error
        if status is not UNSET:
            field_dict["status"] = status
        if duration_ms is not UNSET:
            field_dict["duration_ms"] = duration_ms
        if tool_call_id is not UNSET:
            field_dict["tool_call_id"] = tool_call_id
        if knowledge is not UNSET:
            field_dict["knowledge"] = knowledge
        if interrupted is not UNSET:
            field_dict["interrupted"] = interrupted
        if backchannel is not UNSET:
            field_dict["backchannel"] = backchannel
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if reason is not UNSET:
            field_dict["reason"] = reason
        if redaction is not UNSET:
            field_dict["redaction"] = redaction
        if latency is not UNSET:
            field_dict["latency"] = latency

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.redaction import Redaction # noqa: PLC0415
        from ..models.transcript_turn_knowledge_item import TranscriptTurnKnowledgeItem # noqa: PLC0415
        from ..models.transcript_turn_tool import TranscriptTurnTool # noqa: PLC0415
        from ..models.turn_latency import TurnLatency # noqa: PLC0415
        d = dict(src_dict)
        role = d.pop("role")

        text = d.pop("text")

        def _parse_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        at = _parse_at(d.pop("at"))


        def _parse_offset_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        offset_ms = _parse_offset_ms(d.pop("offset_ms"))


        author = cast(Literal['api'] | Unset , d.pop("author", UNSET))
        if author != 'api'and not isinstance(author, Unset):
            raise ValueError(f"author must match const 'api', got '{author}'")

        _tool = d.pop("tool", UNSET)
        tool: TranscriptTurnTool | Unset
        if isinstance(_tool,  Unset):
            tool = UNSET
        else:
            tool = TranscriptTurnTool.from_dict(_tool)




        name = d.pop("name", UNSET)

        arguments = d.pop("arguments", UNSET)

        result = d.pop("result", UNSET)

        error = d.pop("error", UNSET)

        status = d.pop("status", UNSET)

        duration_ms = d.pop("duration_ms", UNSET)

        tool_call_id = d.pop("tool_call_id", UNSET)

        _knowledge = d.pop("knowledge", UNSET)
        knowledge: list[TranscriptTurnKnowledgeItem] | Unset = UNSET
        if _knowledge is not UNSET:
            knowledge = []
            for knowledge_item_data in _knowledge:
                knowledge_item = TranscriptTurnKnowledgeItem.from_dict(knowledge_item_data)



                knowledge.append(knowledge_item)


        interrupted = d.pop("interrupted", UNSET)

        backchannel = d.pop("backchannel", UNSET)

        _outcome = d.pop("outcome", UNSET)
        outcome: TranscriptTurnOutcome | Unset
        if isinstance(_outcome,  Unset):
            outcome = UNSET
        else:
            outcome = TranscriptTurnOutcome(_outcome)




        _reason = d.pop("reason", UNSET)
        reason: TranscriptTurnReason | Unset
        if isinstance(_reason,  Unset):
            reason = UNSET
        else:
            reason = TranscriptTurnReason(_reason)




        _redaction = d.pop("redaction", UNSET)
        redaction: Redaction | Unset
        if isinstance(_redaction,  Unset):
            redaction = UNSET
        else:
            redaction = Redaction.from_dict(_redaction)




        _latency = d.pop("latency", UNSET)
        latency: TurnLatency | Unset
        if isinstance(_latency,  Unset):
            latency = UNSET
        else:
            latency = TurnLatency.from_dict(_latency)




        transcript_turn = cls(
            role=role,
            text=text,
            at=at,
            offset_ms=offset_ms,
            author=author,
            tool=tool,
            name=name,
            arguments=arguments,
            result=result,
            error=error,
            status=status,
            duration_ms=duration_ms,
            tool_call_id=tool_call_id,
            knowledge=knowledge,
            interrupted=interrupted,
            backchannel=backchannel,
            outcome=outcome,
            reason=reason,
            redaction=redaction,
            latency=latency,
        )


        transcript_turn.additional_properties = d
        return transcript_turn

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
