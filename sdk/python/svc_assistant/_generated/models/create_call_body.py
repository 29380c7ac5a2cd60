from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_call_body_calling_hours import CreateCallBodyCallingHours
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_call_body_analysis_type_0 import CreateCallBodyAnalysisType0
  from ..models.create_call_body_calling_window import CreateCallBodyCallingWindow
  from ..models.create_call_body_context import CreateCallBodyContext
  from ..models.create_call_body_metadata import CreateCallBodyMetadata
  from ..models.create_call_body_recording import CreateCallBodyRecording
  from ..models.create_call_body_simulation import CreateCallBodySimulation
  from ..models.create_call_body_voicemail import CreateCallBodyVoicemail





T = TypeVar("T", bound="CreateCallBody")



@_attrs_define
class CreateCallBody:
    """ 
        Attributes:
            to (str): A valid phone number in E.164 format.
            agent_id (str):
            from_ (str | Unset): A valid phone number in E.164 format.
            context (CreateCallBodyContext | Unset):
            metadata (CreateCallBodyMetadata | Unset):
            simulation (CreateCallBodySimulation | Unset):
            max_duration_seconds (int | Unset):
            contact_id (str | Unset):
            queue_timeout_seconds (int | Unset): How long the call may stay `queued` while the organization is at
                `max_concurrent_calls` (default 600); then `failed`, `queue_timeout`.
            scheduled_at (int | str | Unset): When to dial: unix seconds, or ISO 8601 with a UTC offset
                (`2026-12-01T15:00:00-05:00`); from now (a minute of clock skew allowed) to 30 days ahead. The call is
                `scheduled` until then.
            calling_window (CreateCallBodyCallingWindow | Unset): Local times the call may ring in the callee's zone: a time
                outside it (or now, without `scheduled_at`) moves to its next opening. Default for a scheduled call: the agent's
                window, else 08:00–21:00 for a live +1 number.
            voicemail (CreateCallBodyVoicemail | Unset): This call's voicemail setting, replacing the agent's.
            recording (CreateCallBodyRecording | Unset): Record this call, instead of the agent's `recording`; `GET
                /v1/calls/{id}/recording` once ready.
            analysis (CreateCallBodyAnalysisType0 | None | Unset): This call's analysis plan, instead of the agent's; null:
                no analysis for this call.
            calling_hours (CreateCallBodyCallingHours | Unset): Outside the callee's calling hours (their local time: US/CA
                08:00-21:00, GB 08:00-21:00 weekdays and 09:00-21:00 weekends, others 09:00-20:00, narrowed by the operator and
                the account's `calling_hours`): `hold` (default) keeps the call `scheduled` (`scheduled_reason:
                "calling_hours"`) and dials it when they open; `refuse` answers 422 `outside_calling_hours`.
     """

    to: str
    agent_id: str
    from_: str | Unset = UNSET
    context: CreateCallBodyContext | Unset = UNSET
    metadata: CreateCallBodyMetadata | Unset = UNSET
    simulation: CreateCallBodySimulation | Unset = UNSET
    max_duration_seconds: int | Unset = UNSET
    contact_id: str | Unset = UNSET
    queue_timeout_seconds: int | Unset = UNSET
    scheduled_at: int | str | Unset = UNSET
    calling_window: CreateCallBodyCallingWindow | Unset = UNSET
    voicemail: CreateCallBodyVoicemail | Unset = UNSET
    recording: CreateCallBodyRecording | Unset = UNSET
    analysis: CreateCallBodyAnalysisType0 | None | Unset = UNSET
    calling_hours: CreateCallBodyCallingHours | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_call_body_analysis_type_0 import CreateCallBodyAnalysisType0 # noqa: PLC0415
        from ..models.create_call_body_calling_window import CreateCallBodyCallingWindow # noqa: PLC0415
        from ..models.create_call_body_context import CreateCallBodyContext # noqa: PLC0415
        from ..models.create_call_body_metadata import CreateCallBodyMetadata # noqa: PLC0415
        from ..models.create_call_body_recording import CreateCallBodyRecording # noqa: PLC0415
        from ..models.create_call_body_simulation import CreateCallBodySimulation # noqa: PLC0415
        from ..models.create_call_body_voicemail import CreateCallBodyVoicemail # noqa: PLC0415
        to = self.to

        agent_id = self.agent_id

        from_ = self.from_

        context: dict[str, Any] | Unset = UNSET
        if not isinstance(self.context, Unset):
            context = self.context.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        simulation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.simulation, Unset):
            simulation = self.simulation.to_dict()

        max_duration_seconds = self.max_duration_seconds

        contact_id = self.contact_id

        queue_timeout_seconds = self.queue_timeout_seconds

        scheduled_at: int | str | Unset
        if isinstance(self.scheduled_at, Unset):
            scheduled_at = UNSET
        else:
            scheduled_at = self.scheduled_at

        calling_window: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calling_window, Unset):
            calling_window = self.calling_window.to_dict()

        voicemail: dict[str, Any] | Unset = UNSET
        if not isinstance(self.voicemail, Unset):
            voicemail = self.voicemail.to_dict()

        recording: dict[str, Any] | Unset = UNSET
        if not isinstance(self.recording, Unset):
            recording = self.recording.to_dict()

        analysis: dict[str, Any] | None | Unset
        if isinstance(self.analysis, Unset):
            analysis = UNSET
        elif isinstance(self.analysis, CreateCallBodyAnalysisType0):
            analysis = self.analysis.to_dict()
        else:
            analysis = self.analysis

        calling_hours: str | Unset = UNSET
        if not isinstance(self.calling_hours, Unset):
            calling_hours = self.calling_hours.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "to": to,
            "agent_id": agent_id,
        })
        if from_ is not UNSET:
            field_dict["from"] = from_
        if context is not UNSET:
            field_dict["context"] = context
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if simulation is not UNSET:
            field_dict["simulation"] = simulation
        if max_duration_seconds is not UNSET:
            field_dict["max_duration_seconds"] = max_duration_seconds
        if contact_id is not UNSET:
            field_dict["contact_id"] = contact_id
        if queue_timeout_seconds is not UNSET:
            field_dict["queue_timeout_seconds"] = queue_timeout_seconds
        if scheduled_at is not UNSET:
            field_dict["scheduled_at"] = scheduled_at
        if calling_window is not UNSET:
            field_dict["calling_window"] = calling_window
        if voicemail is not UNSET:
            field_dict["voicemail"] = voicemail
        if recording is not UNSET:
            field_dict["recording"] = recording
        if analysis is not UNSET:
            field_dict["analysis"] = analysis
        if calling_hours is not UNSET:
            field_dict["calling_hours"] = calling_hours

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_call_body_analysis_type_0 import CreateCallBodyAnalysisType0 # noqa: PLC0415
        from ..models.create_call_body_calling_window import CreateCallBodyCallingWindow # noqa: PLC0415
        from ..models.create_call_body_context import CreateCallBodyContext # noqa: PLC0415
        from ..models.create_call_body_metadata import CreateCallBodyMetadata # noqa: PLC0415
        from ..models.create_call_body_recording import CreateCallBodyRecording # noqa: PLC0415
        from ..models.create_call_body_simulation import CreateCallBodySimulation # noqa: PLC0415
        from ..models.create_call_body_voicemail import CreateCallBodyVoicemail # noqa: PLC0415
        d = dict(src_dict)
        to = d.pop("to")

        agent_id = d.pop("agent_id")

        from_ = d.pop("from", UNSET)

        _context = d.pop("context", UNSET)
        context: CreateCallBodyContext | Unset
        if isinstance(_context,  Unset):
            context = UNSET
        else:
            context = CreateCallBodyContext.from_dict(_context)




        _metadata = d.pop("metadata", UNSET)
        metadata: CreateCallBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateCallBodyMetadata.from_dict(_metadata)




        _simulation = d.pop("simulation", UNSET)
        simulation: CreateCallBodySimulation | Unset
        if isinstance(_simulation,  Unset):
            simulation = UNSET
        else:
            simulation = CreateCallBodySimulation.from_dict(_simulation)




        max_duration_seconds = d.pop("max_duration_seconds", UNSET)

        contact_id = d.pop("contact_id", UNSET)

        queue_timeout_seconds = d.pop("queue_timeout_seconds", UNSET)

        def _parse_scheduled_at(data: object) -> int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | str | Unset, data)

        scheduled_at = _parse_scheduled_at(d.pop("scheduled_at", UNSET))


        _calling_window = d.pop("calling_window", UNSET)
        calling_window: CreateCallBodyCallingWindow | Unset
        if isinstance(_calling_window,  Unset):
            calling_window = UNSET
        else:
            calling_window = CreateCallBodyCallingWindow.from_dict(_calling_window)




        _voicemail = d.pop("voicemail", UNSET)
        voicemail: CreateCallBodyVoicemail | Unset
        if isinstance(_voicemail,  Unset):
            voicemail = UNSET
        else:
            voicemail = CreateCallBodyVoicemail.from_dict(_voicemail)




        _recording = d.pop("recording", UNSET)
        recording: CreateCallBodyRecording | Unset
        if isinstance(_recording,  Unset):
            recording = UNSET
        else:
            recording = CreateCallBodyRecording.from_dict(_recording)




        def _parse_analysis(data: object) -> CreateCallBodyAnalysisType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                analysis_type_0 = CreateCallBodyAnalysisType0.from_dict(data)



                return analysis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateCallBodyAnalysisType0 | None | Unset, data)

        analysis = _parse_analysis(d.pop("analysis", UNSET))


        _calling_hours = d.pop("calling_hours", UNSET)
        calling_hours: CreateCallBodyCallingHours | Unset
        if isinstance(_calling_hours,  Unset):
            calling_hours = UNSET
        else:
            calling_hours = CreateCallBodyCallingHours(_calling_hours)




        create_call_body = cls(
            to=to,
            agent_id=agent_id,
            from_=from_,
            context=context,
            metadata=metadata,
            simulation=simulation,
            max_duration_seconds=max_duration_seconds,
            contact_id=contact_id,
            queue_timeout_seconds=queue_timeout_seconds,
            scheduled_at=scheduled_at,
            calling_window=calling_window,
            voicemail=voicemail,
            recording=recording,
            analysis=analysis,
            calling_hours=calling_hours,
        )

        return create_call_body

