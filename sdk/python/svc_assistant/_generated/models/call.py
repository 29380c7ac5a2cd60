from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.call_answered_by_type_0 import CallAnsweredByType0
from ..models.call_direction import CallDirection
from ..models.call_engine import CallEngine
from ..models.call_engine_fallback_type_0 import CallEngineFallbackType0
from ..models.call_scheduled_reason_type_0 import CallScheduledReasonType0
from ..models.call_status import CallStatus
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.analysis import Analysis
  from ..models.call_calling_window import CallCallingWindow
  from ..models.call_compliance import CallCompliance
  from ..models.call_context import CallContext
  from ..models.call_error import CallError
  from ..models.call_form_type_0 import CallFormType0
  from ..models.call_inbound_webhook import CallInboundWebhook
  from ..models.call_latency import CallLatency
  from ..models.call_metadata import CallMetadata
  from ..models.call_recording import CallRecording
  from ..models.call_recording_consent import CallRecordingConsent
  from ..models.call_transfer import CallTransfer
  from ..models.call_usage import CallUsage
  from ..models.call_voicemail import CallVoicemail
  from ..models.cost import Cost
  from ..models.transcript_turn import TranscriptTurn





T = TypeVar("T", bound="Call")



@_attrs_define
class Call:
    """ A phone call placed by an assistant, live through Twilio or simulated with a test key.

        Attributes:
            id (str):
            object_ (Literal['call']):
            livemode (bool):
            status (CallStatus):
            direction (CallDirection): `outbound`: the assistant dialed `to`; `inbound`: `from` called the number `to`.
            to (str):
            from_ (None | str):
            agent_id (str):
            agent_version (int | None): The agent's version the call runs, fixed when it starts (`GET
                /v1/agents/{id}/versions/{n}`); null for calls made before versions.
            contact_id (None | str):
            engine (CallEngine): What carried the call: its agent version's `engine` (`pipeline` or `realtime`).
            engine_fallback (CallEngineFallbackType0 | None): Why a `realtime` call went on with the pipeline engine on the
                same call: `accept_failed`, `session_error` (before the first answer), `no_webhook` (OpenAI never announced the
                SIP leg), `no_simulator` (a test-mode call with no simulated SIP leg); null when it did not.
            context (CallContext):
            metadata (CallMetadata): Your key-value pairs (at most 50 keys).
            end_reason (None | str):
            answered_by (CallAnsweredByType0 | None): Who answered, as answering-machine detection said (agent or call
                `voicemail.detection`): `machine` ends the call with `end_reason: "voicemail"`. Null without detection or when
                it had not decided; set when the call ends.
            transferred_to (None | str):
            voicemail (CallVoicemail | None): What the call did on an answering machine (`end_reason: "voicemail"`):
                `{"left": true, "message": …}` when the voicemail setting's message was left (live: once Twilio took it),
                `{"left": false, "message": null}` when it hung up (action `hang_up`, a campaign attempt that redials, or
                leaving failed). Null when no machine answered; set when the call ends.
            transfer (CallTransfer | None): The call's latest transfer. Warm: `dialing` (the caller on hold, the person
                ringing), `briefing` (the person hears `summary`), then `transferred`, or `failed` with `reason` (`busy`,
                `no_answer`, `hung_up`, `failed`: the caller is back with the assistant). `attempt` counts the call's warm
                transfers. Null: never transferred.
            simulated (bool):
            max_duration_seconds (int):
            created (int): Unix time in seconds.
            answered_at (int | None):
            ended_at (int | None):
            duration_seconds (int | None):
            error (CallError | None):
            bulk_call_id (None | str):
            inbound_webhook (CallInboundWebhook | None): An inbound call: how the number's `inbound_webhook_url` answered
                (`failed`: the number's agent answered).
            form (CallFormType0 | None): A campaign call's filled form, once the call has ended.
            scheduled_at (int | None): A scheduled call: when it is dialed (moved to its calling window's next opening);
                null for a call dialed at once.
            calling_window (CallCallingWindow | None): The calling window the call was created with; null when none.
            scheduled_reason (CallScheduledReasonType0 | None): `calling_hours`: the dial gate holds (or held) the call
                until the callee's calling hours open (`scheduled_at`); null: scheduled by the request, or never scheduled.
            compliance (CallCompliance | None): The dial gate's latest check before the call was dialed (calling hours at
                the callee's local time, do-not-call lists) and its decision, with each warm transfer leg's check; null: never
                checked (inbound calls, calls made before the gate).
            callback_of (None | str): A callback the assistant promised (`schedule_callback`): the call (`call_…`) or the
                WhatsApp/SMS conversation (`conv_…`) it was promised on.
            recording (CallRecording | None): Whether the call is recorded (its own `recording`, else its agent's, at
                creation); null: not recorded.
            recording_consent (CallRecordingConsent | None): The recording-consent decision; null for calls made before it
                existed.
            ai_disclosure (None | str): The automated-assistant disclosure the call's first sentence said (the
                organization's `ai_disclosure`, in the agent's language); null: off.
            latency (CallLatency | None): The answers' latency as the caller heard it (p50/p90 of each turn's `latency`),
                written when the call ends; null before, and when no answer was measured.
            cost (Cost | None): What the call cost (telephony, model, recording, platform fee), in integer micro-units of
                `currency`, computed once when it ended from what it used and the price table then in force (README "Costs");
                null before it ended. Its analysis is priced apart (`GET /v1/usage` `cost`).
            cost_incomplete (bool): True when a model the call used is missing from the price table: `cost.model_micros` is
                null and `cost.total_micros` lacks it.
            analysis (Analysis | None): The call's current analysis (the agent's or the call's `analysis` plan, run once the
                call has ended; the newest re-run); null until one is stored.
            trace_id (None | str): The W3C trace id (32 lowercase hex digits) of the OpenTelemetry trace the call was
                created in (the API request, its workflow, turns, model requests, tool calls, Twilio requests and webhook
                deliveries), to look up in the tracing backend; null when tracing is off or the call was created outside a
                trace.
            usage (CallUsage | Unset):
            turns (list[TranscriptTurn] | Unset): The turns so far, in order, while the call is not over (`GET
                /v1/calls/{id}` only): each turn once final (written right after the answer it belongs to). Absent once the call
                has ended (`GET /v1/calls/{id}/transcript`), in lists and in events.
     """

    id: str
    object_: Literal['call']
    livemode: bool
    status: CallStatus
    direction: CallDirection
    to: str
    from_: None | str
    agent_id: str
    agent_version: int | None
    contact_id: None | str
    engine: CallEngine
    engine_fallback: CallEngineFallbackType0 | None
    context: CallContext
    metadata: CallMetadata
    end_reason: None | str
    answered_by: CallAnsweredByType0 | None
    transferred_to: None | str
    voicemail: CallVoicemail | None
    transfer: CallTransfer | None
    simulated: bool
    max_duration_seconds: int
    created: int
    answered_at: int | None
    ended_at: int | None
    duration_seconds: int | None
    error: CallError | None
    bulk_call_id: None | str
    inbound_webhook: CallInboundWebhook | None
    form: CallFormType0 | None
    scheduled_at: int | None
    calling_window: CallCallingWindow | None
    scheduled_reason: CallScheduledReasonType0 | None
    compliance: CallCompliance | None
    callback_of: None | str
    recording: CallRecording | None
    recording_consent: CallRecordingConsent | None
    ai_disclosure: None | str
    latency: CallLatency | None
    cost: Cost | None
    cost_incomplete: bool
    analysis: Analysis | None
    trace_id: None | str
    usage: CallUsage | Unset = UNSET
    turns: list[TranscriptTurn] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.analysis import Analysis # noqa: PLC0415
        from ..models.call_calling_window import CallCallingWindow # noqa: PLC0415
        from ..models.call_compliance import CallCompliance # noqa: PLC0415
        from ..models.call_context import CallContext # noqa: PLC0415
        from ..models.call_error import CallError # noqa: PLC0415
        from ..models.call_form_type_0 import CallFormType0 # noqa: PLC0415
        from ..models.call_inbound_webhook import CallInboundWebhook # noqa: PLC0415
        from ..models.call_latency import CallLatency # noqa: PLC0415
        from ..models.call_metadata import CallMetadata # noqa: PLC0415
        from ..models.call_recording import CallRecording # noqa: PLC0415
        from ..models.call_recording_consent import CallRecordingConsent # noqa: PLC0415
        from ..models.call_transfer import CallTransfer # noqa: PLC0415
        from ..models.call_usage import CallUsage # noqa: PLC0415
        from ..models.call_voicemail import CallVoicemail # noqa: PLC0415
        from ..models.cost import Cost # noqa: PLC0415
        from ..models.transcript_turn import TranscriptTurn # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        status = self.status.value

        direction = self.direction.value

        to = self.to

        from_: None | str
        from_ = self.from_

        agent_id = self.agent_id

        agent_version: int | None
        agent_version = self.agent_version

        contact_id: None | str
        contact_id = self.contact_id

        engine = self.engine.value

        engine_fallback: None | str
        if isinstance(self.engine_fallback, CallEngineFallbackType0):
            engine_fallback = self.engine_fallback.value
        else:
            engine_fallback = self.engine_fallback

        context = self.context.to_dict()

        metadata = self.metadata.to_dict()

        end_reason: None | str
        end_reason = self.end_reason

        answered_by: None | str
        if isinstance(self.answered_by, CallAnsweredByType0):
            answered_by = self.answered_by.value
        else:
            answered_by = self.answered_by

        transferred_to: None | str
        transferred_to = self.transferred_to

        voicemail: dict[str, Any] | None
        if isinstance(self.voicemail, CallVoicemail):
            voicemail = self.voicemail.to_dict()
        else:
            voicemail = self.voicemail

        transfer: dict[str, Any] | None
        if isinstance(self.transfer, CallTransfer):
            transfer = self.transfer.to_dict()
        else:
            transfer = self.transfer

        simulated = self.simulated

        max_duration_seconds = self.max_duration_seconds

        created = self.created

        answered_at: int | None
        answered_at = self.answered_at

        ended_at: int | None
        ended_at = self.ended_at

        duration_seconds: int | None
        duration_seconds = self.duration_seconds

        error: dict[str, Any] | None
        if isinstance(self.error, CallError):
            error = self.error.to_dict()
        else:
            error = self.error

        bulk_call_id: None | str
        bulk_call_id = self.bulk_call_id

        inbound_webhook: dict[str, Any] | None
        if isinstance(self.inbound_webhook, CallInboundWebhook):
            inbound_webhook = self.inbound_webhook.to_dict()
        else:
            inbound_webhook = self.inbound_webhook

        form: dict[str, Any] | None
        if isinstance(self.form, CallFormType0):
            form = self.form.to_dict()
        else:
            form = self.form

        scheduled_at: int | None
        scheduled_at = self.scheduled_at

        calling_window: dict[str, Any] | None
        if isinstance(self.calling_window, CallCallingWindow):
            calling_window = self.calling_window.to_dict()
        else:
            calling_window = self.calling_window

        scheduled_reason: None | str
        if isinstance(self.scheduled_reason, CallScheduledReasonType0):
            scheduled_reason = self.scheduled_reason.value
        else:
            scheduled_reason = self.scheduled_reason

        compliance: dict[str, Any] | None
        if isinstance(self.compliance, CallCompliance):
            compliance = self.compliance.to_dict()
        else:
            compliance = self.compliance

        callback_of: None | str
        callback_of = self.callback_of

        recording: dict[str, Any] | None
        if isinstance(self.recording, CallRecording):
            recording = self.recording.to_dict()
        else:
            recording = self.recording

        recording_consent: dict[str, Any] | None
        if isinstance(self.recording_consent, CallRecordingConsent):
            recording_consent = self.recording_consent.to_dict()
        else:
            recording_consent = self.recording_consent

        ai_disclosure: None | str
        ai_disclosure = self.ai_disclosure

        latency: dict[str, Any] | None
        if isinstance(self.latency, CallLatency):
            latency = self.latency.to_dict()
        else:
            latency = self.latency

        cost: dict[str, Any] | None
        if isinstance(self.cost, Cost):
            cost = self.cost.to_dict()
        else:
            cost = self.cost

        cost_incomplete = self.cost_incomplete

        analysis: dict[str, Any] | None
        if isinstance(self.analysis, Analysis):
            analysis = self.analysis.to_dict()
        else:
            analysis = self.analysis

        trace_id: None | str
        trace_id = self.trace_id

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()

        turns: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.turns, Unset):
            turns = []
            for turns_item_data in self.turns:
                turns_item = turns_item_data.to_dict()
                turns.append(turns_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "status": status,
            "direction": direction,
            "to": to,
            "from": from_,
            "agent_id": agent_id,
            "agent_version": agent_version,
            "contact_id": contact_id,
            "engine": engine,
            "engine_fallback": engine_fallback,
            "context": context,
            "metadata": metadata,
            "end_reason": end_reason,
            "answered_by": answered_by,
            "transferred_to": transferred_to,
            "voicemail": voicemail,
            "transfer": transfer,
            "simulated": simulated,
            "max_duration_seconds": max_duration_seconds,
            "created": created,
            "answered_at": answered_at,
            "ended_at": ended_at,
            "duration_seconds": duration_seconds,
            "error": error,
            "bulk_call_id": bulk_call_id,
            "inbound_webhook": inbound_webhook,
            "form": form,
            "scheduled_at": scheduled_at,
            "calling_window": calling_window,
            "scheduled_reason": scheduled_reason,
            "compliance": compliance,
            "callback_of": callback_of,
            "recording": recording,
            "recording_consent": recording_consent,
            "ai_disclosure": ai_disclosure,
            "latency": latency,
            "cost": cost,
            "cost_incomplete": cost_incomplete,
            "analysis": analysis,
            "trace_id": trace_id,
        })
        if usage is not UNSET:
            field_dict["usage"] = usage
        if turns is not UNSET:
            field_dict["turns"] = turns

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.analysis import Analysis # noqa: PLC0415
        from ..models.call_calling_window import CallCallingWindow # noqa: PLC0415
        from ..models.call_compliance import CallCompliance # noqa: PLC0415
        from ..models.call_context import CallContext # noqa: PLC0415
        from ..models.call_error import CallError # noqa: PLC0415
        from ..models.call_form_type_0 import CallFormType0 # noqa: PLC0415
        from ..models.call_inbound_webhook import CallInboundWebhook # noqa: PLC0415
        from ..models.call_latency import CallLatency # noqa: PLC0415
        from ..models.call_metadata import CallMetadata # noqa: PLC0415
        from ..models.call_recording import CallRecording # noqa: PLC0415
        from ..models.call_recording_consent import CallRecordingConsent # noqa: PLC0415
        from ..models.call_transfer import CallTransfer # noqa: PLC0415
        from ..models.call_usage import CallUsage # noqa: PLC0415
        from ..models.call_voicemail import CallVoicemail # noqa: PLC0415
        from ..models.cost import Cost # noqa: PLC0415
        from ..models.transcript_turn import TranscriptTurn # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['call'] , d.pop("object"))
        if object_ != 'call':
            raise ValueError(f"object must match const 'call', got '{object_}'")

        livemode = d.pop("livemode")

        status = CallStatus(d.pop("status"))




        direction = CallDirection(d.pop("direction"))




        to = d.pop("to")

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))


        agent_id = d.pop("agent_id")

        def _parse_agent_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        agent_version = _parse_agent_version(d.pop("agent_version"))


        def _parse_contact_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contact_id = _parse_contact_id(d.pop("contact_id"))


        engine = CallEngine(d.pop("engine"))




        def _parse_engine_fallback(data: object) -> CallEngineFallbackType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                engine_fallback_type_0 = CallEngineFallbackType0(data)



                return engine_fallback_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallEngineFallbackType0 | None, data)

        engine_fallback = _parse_engine_fallback(d.pop("engine_fallback"))


        context = CallContext.from_dict(d.pop("context"))




        metadata = CallMetadata.from_dict(d.pop("metadata"))




        def _parse_end_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        end_reason = _parse_end_reason(d.pop("end_reason"))


        def _parse_answered_by(data: object) -> CallAnsweredByType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                answered_by_type_0 = CallAnsweredByType0(data)



                return answered_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallAnsweredByType0 | None, data)

        answered_by = _parse_answered_by(d.pop("answered_by"))


        def _parse_transferred_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transferred_to = _parse_transferred_to(d.pop("transferred_to"))


        def _parse_voicemail(data: object) -> CallVoicemail | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voicemail_type_0 = CallVoicemail.from_dict(data)



                return voicemail_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallVoicemail | None, data)

        voicemail = _parse_voicemail(d.pop("voicemail"))


        def _parse_transfer(data: object) -> CallTransfer | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                transfer_type_0 = CallTransfer.from_dict(data)



                return transfer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallTransfer | None, data)

        transfer = _parse_transfer(d.pop("transfer"))


        simulated = d.pop("simulated")

        max_duration_seconds = d.pop("max_duration_seconds")

        created = d.pop("created")

        def _parse_answered_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        answered_at = _parse_answered_at(d.pop("answered_at"))


        def _parse_ended_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))


        def _parse_duration_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_seconds = _parse_duration_seconds(d.pop("duration_seconds"))


        def _parse_error(data: object) -> CallError | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = CallError.from_dict(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallError | None, data)

        error = _parse_error(d.pop("error"))


        def _parse_bulk_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        bulk_call_id = _parse_bulk_call_id(d.pop("bulk_call_id"))


        def _parse_inbound_webhook(data: object) -> CallInboundWebhook | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                inbound_webhook_type_0 = CallInboundWebhook.from_dict(data)



                return inbound_webhook_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallInboundWebhook | None, data)

        inbound_webhook = _parse_inbound_webhook(d.pop("inbound_webhook"))


        def _parse_form(data: object) -> CallFormType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                form_type_0 = CallFormType0.from_dict(data)



                return form_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallFormType0 | None, data)

        form = _parse_form(d.pop("form"))


        def _parse_scheduled_at(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        scheduled_at = _parse_scheduled_at(d.pop("scheduled_at"))


        def _parse_calling_window(data: object) -> CallCallingWindow | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calling_window_type_0 = CallCallingWindow.from_dict(data)



                return calling_window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallCallingWindow | None, data)

        calling_window = _parse_calling_window(d.pop("calling_window"))


        def _parse_scheduled_reason(data: object) -> CallScheduledReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                scheduled_reason_type_0 = CallScheduledReasonType0(data)



                return scheduled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallScheduledReasonType0 | None, data)

        scheduled_reason = _parse_scheduled_reason(d.pop("scheduled_reason"))


        def _parse_compliance(data: object) -> CallCompliance | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                compliance_type_0 = CallCompliance.from_dict(data)



                return compliance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallCompliance | None, data)

        compliance = _parse_compliance(d.pop("compliance"))


        def _parse_callback_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        callback_of = _parse_callback_of(d.pop("callback_of"))


        def _parse_recording(data: object) -> CallRecording | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recording_type_0 = CallRecording.from_dict(data)



                return recording_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallRecording | None, data)

        recording = _parse_recording(d.pop("recording"))


        def _parse_recording_consent(data: object) -> CallRecordingConsent | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recording_consent_type_0 = CallRecordingConsent.from_dict(data)



                return recording_consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallRecordingConsent | None, data)

        recording_consent = _parse_recording_consent(d.pop("recording_consent"))


        def _parse_ai_disclosure(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ai_disclosure = _parse_ai_disclosure(d.pop("ai_disclosure"))


        def _parse_latency(data: object) -> CallLatency | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                latency_type_0 = CallLatency.from_dict(data)



                return latency_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallLatency | None, data)

        latency = _parse_latency(d.pop("latency"))


        def _parse_cost(data: object) -> Cost | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cost_type_0 = Cost.from_dict(data)



                return cost_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Cost | None, data)

        cost = _parse_cost(d.pop("cost"))


        cost_incomplete = d.pop("cost_incomplete")

        def _parse_analysis(data: object) -> Analysis | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                analysis_type_0 = Analysis.from_dict(data)



                return analysis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Analysis | None, data)

        analysis = _parse_analysis(d.pop("analysis"))


        def _parse_trace_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        trace_id = _parse_trace_id(d.pop("trace_id"))


        _usage = d.pop("usage", UNSET)
        usage: CallUsage | Unset
        if isinstance(_usage,  Unset):
            usage = UNSET
        else:
            usage = CallUsage.from_dict(_usage)




        _turns = d.pop("turns", UNSET)
        turns: list[TranscriptTurn] | Unset = UNSET
        if _turns is not UNSET:
            turns = []
            for turns_item_data in _turns:
                turns_item = TranscriptTurn.from_dict(turns_item_data)



                turns.append(turns_item)


        call = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            status=status,
            direction=direction,
            to=to,
            from_=from_,
            agent_id=agent_id,
            agent_version=agent_version,
            contact_id=contact_id,
            engine=engine,
            engine_fallback=engine_fallback,
            context=context,
            metadata=metadata,
            end_reason=end_reason,
            answered_by=answered_by,
            transferred_to=transferred_to,
            voicemail=voicemail,
            transfer=transfer,
            simulated=simulated,
            max_duration_seconds=max_duration_seconds,
            created=created,
            answered_at=answered_at,
            ended_at=ended_at,
            duration_seconds=duration_seconds,
            error=error,
            bulk_call_id=bulk_call_id,
            inbound_webhook=inbound_webhook,
            form=form,
            scheduled_at=scheduled_at,
            calling_window=calling_window,
            scheduled_reason=scheduled_reason,
            compliance=compliance,
            callback_of=callback_of,
            recording=recording,
            recording_consent=recording_consent,
            ai_disclosure=ai_disclosure,
            latency=latency,
            cost=cost,
            cost_incomplete=cost_incomplete,
            analysis=analysis,
            trace_id=trace_id,
            usage=usage,
            turns=turns,
        )


        call.additional_properties = d
        return call

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
