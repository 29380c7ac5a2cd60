from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_agent_body_engine import CreateAgentBodyEngine
from ..models.create_agent_body_interruptible import CreateAgentBodyInterruptible
from ..models.create_agent_body_recording_consent import CreateAgentBodyRecordingConsent
from ..models.create_agent_body_transfer_mode import CreateAgentBodyTransferMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.create_agent_body_analysis import CreateAgentBodyAnalysis
  from ..models.create_agent_body_calling_window import CreateAgentBodyCallingWindow
  from ..models.create_agent_body_metadata import CreateAgentBodyMetadata
  from ..models.create_agent_body_recording import CreateAgentBodyRecording
  from ..models.create_agent_body_transcription import CreateAgentBodyTranscription
  from ..models.create_agent_body_transfer_destinations_item import CreateAgentBodyTransferDestinationsItem
  from ..models.create_agent_body_turn_taking import CreateAgentBodyTurnTaking
  from ..models.create_agent_body_voice import CreateAgentBodyVoice
  from ..models.create_agent_body_voicemail import CreateAgentBodyVoicemail





T = TypeVar("T", bound="CreateAgentBody")



@_attrs_define
class CreateAgentBody:
    """ 
        Attributes:
            name (str):
            instructions (str):
            first_message (str | Unset):
            model (str | Unset): The chat model; one of those the operator allows (`LLM_MODELS`); absent: the default model.
            transfer_to (str | Unset):
            transfer_destinations (list[CreateAgentBodyTransferDestinationsItem] | Unset): The places the assistant may
                transfer a caller to: the model's `transfer_call` names one of them, never a number. Each is checked against the
                account's `dialing_permissions` when saved and again when dialed. Empty (and no `transfer_to`): the assistant
                cannot transfer.
            transfer_mode (CreateAgentBodyTransferMode | Unset): How the `transfer_call` tool transfers: `cold` (default)
                hands the line over; `warm` holds the caller, briefs the person with a summary and joins them, or brings the
                caller back to the assistant when the person is busy, does not answer or hangs up.
            tool_ids (list[str] | Unset): Custom tools (`tool_…`) the assistant may call besides its built-in ones; each a
                live tool of yours in this mode.
            connector_installation_ids (list[str] | Unset): Connector installations (`cinst_…`) whose tools the assistant
                may call; each a live installation of yours in this mode.
            enabled_tools (list[str] | Unset): Optional built-in tools the assistant offers: `schedule_callback`,
                `send_dtmf` (`schedule_callback` calls the person back at the time they ask for, on calls and WhatsApp/SMS
                conversations; `send_dtmf` presses keys on a phone call, to navigate a phone menu). Each at most once.
            opt_out_tool (bool | Unset): Offer the built-in `opt_out` tool on its calls (default true): a person who asks
                not to be called again is put on the do-not-call list on the spot, told so, and the call ends. `false` switches
                it off.
            calling_window (CreateAgentBodyCallingWindow | Unset): When the agent's scheduled calls and promised callbacks
                may ring (local time of the callee); a time outside it moves to its next opening.
            voicemail (CreateAgentBodyVoicemail | Unset):
            voice (CreateAgentBodyVoice | Unset): The assistant's text-to-speech voice on phone calls; null:
                ConversationRelay's default.
            language (str | Unset): BCP 47 language tag of the assistant's speech (synthesis and recognition; voice rooms:
                recognition), e.g. `en-US`, `es-MX`.
            transcription (CreateAgentBodyTranscription | Unset): The assistant's speech recognition on phone calls; null:
                ConversationRelay's default.
            interruptible (CreateAgentBodyInterruptible | Unset): What may interrupt the assistant while it speaks on a
                phone call: the caller's speech or keys (`any`, ConversationRelay's default), `speech` only, or `none`.
            dtmf (bool | Unset): Hear the caller's keypresses on phone calls (ConversationRelay `dtmfDetection`): they reach
                the assistant.
            turn_taking (CreateAgentBodyTurnTaking | Unset): How the assistant takes turns on phone calls: the pipeline
                engine's interruption settings and speech hints, the realtime engine's turn detection, and backchannels. Null or
                absent: each engine's defaults.
            engine (CreateAgentBodyEngine | Unset): What carries its phone calls: `pipeline` (default) or `realtime`
                (OpenAI's Realtime API over SIP, speech to speech). `realtime` is refused (400 naming `engine`) unless the
                operator configured an OpenAI project (`OPENAI_REALTIME_PROJECT_ID`, `OPENAI_WEBHOOK_SECRET`), and with
                `recording_consent: "ask"` (400 naming the field this request gives: the caller's answer must be heard before
                the model speaks).
            analysis (CreateAgentBodyAnalysis | Unset): What to learn from each call once it has ended: `summary`,
                `structured_data` (a JSON Schema), `success_evaluation`; the result is the call's `analysis` and a
                `call.analyzed` event.
            metadata (CreateAgentBodyMetadata | Unset):
            recording (CreateAgentBodyRecording | Unset): Record its calls: both parties, kept in the service; `notice` is
                said before the greeting.
            recording_consent (CreateAgentBodyRecordingConsent | Unset): How a recorded call gets consent: `announce` (the
                opening says the call is recorded; `notice` when given, else a built-in sentence in the agent's language), `ask`
                (the opening asks; recording starts only after a spoken yes, a no keeps it off and the call goes on), `off` (not
                recorded, nothing said). Absent: `announce` where either number is in an all-party-consent US state or the
                EU/EEA, the UK (and GG, JE, IM), CA or AU.
            default (bool | Unset):
     """

    name: str
    instructions: str
    first_message: str | Unset = UNSET
    model: str | Unset = UNSET
    transfer_to: str | Unset = UNSET
    transfer_destinations: list[CreateAgentBodyTransferDestinationsItem] | Unset = UNSET
    transfer_mode: CreateAgentBodyTransferMode | Unset = UNSET
    tool_ids: list[str] | Unset = UNSET
    connector_installation_ids: list[str] | Unset = UNSET
    enabled_tools: list[str] | Unset = UNSET
    opt_out_tool: bool | Unset = UNSET
    calling_window: CreateAgentBodyCallingWindow | Unset = UNSET
    voicemail: CreateAgentBodyVoicemail | Unset = UNSET
    voice: CreateAgentBodyVoice | Unset = UNSET
    language: str | Unset = UNSET
    transcription: CreateAgentBodyTranscription | Unset = UNSET
    interruptible: CreateAgentBodyInterruptible | Unset = UNSET
    dtmf: bool | Unset = UNSET
    turn_taking: CreateAgentBodyTurnTaking | Unset = UNSET
    engine: CreateAgentBodyEngine | Unset = UNSET
    analysis: CreateAgentBodyAnalysis | Unset = UNSET
    metadata: CreateAgentBodyMetadata | Unset = UNSET
    recording: CreateAgentBodyRecording | Unset = UNSET
    recording_consent: CreateAgentBodyRecordingConsent | Unset = UNSET
    default: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_agent_body_analysis import CreateAgentBodyAnalysis # noqa: PLC0415
        from ..models.create_agent_body_calling_window import CreateAgentBodyCallingWindow # noqa: PLC0415
        from ..models.create_agent_body_metadata import CreateAgentBodyMetadata # noqa: PLC0415
        from ..models.create_agent_body_recording import CreateAgentBodyRecording # noqa: PLC0415
        from ..models.create_agent_body_transcription import CreateAgentBodyTranscription # noqa: PLC0415
        from ..models.create_agent_body_transfer_destinations_item import CreateAgentBodyTransferDestinationsItem # noqa: PLC0415
        from ..models.create_agent_body_turn_taking import CreateAgentBodyTurnTaking # noqa: PLC0415
        from ..models.create_agent_body_voice import CreateAgentBodyVoice # noqa: PLC0415
        from ..models.create_agent_body_voicemail import CreateAgentBodyVoicemail # noqa: PLC0415
        name = self.name

        instructions = self.instructions

        first_message = self.first_message

        model = self.model

        transfer_to = self.transfer_to

        transfer_destinations: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.transfer_destinations, Unset):
            transfer_destinations = []
            for transfer_destinations_item_data in self.transfer_destinations:
                transfer_destinations_item = transfer_destinations_item_data.to_dict()
                transfer_destinations.append(transfer_destinations_item)



        transfer_mode: str | Unset = UNSET
        if not isinstance(self.transfer_mode, Unset):
            transfer_mode = self.transfer_mode.value


        tool_ids: list[str] | Unset = UNSET
        if not isinstance(self.tool_ids, Unset):
            tool_ids = self.tool_ids



        connector_installation_ids: list[str] | Unset = UNSET
        if not isinstance(self.connector_installation_ids, Unset):
            connector_installation_ids = self.connector_installation_ids



        enabled_tools: list[str] | Unset = UNSET
        if not isinstance(self.enabled_tools, Unset):
            enabled_tools = self.enabled_tools



        opt_out_tool = self.opt_out_tool

        calling_window: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calling_window, Unset):
            calling_window = self.calling_window.to_dict()

        voicemail: dict[str, Any] | Unset = UNSET
        if not isinstance(self.voicemail, Unset):
            voicemail = self.voicemail.to_dict()

        voice: dict[str, Any] | Unset = UNSET
        if not isinstance(self.voice, Unset):
            voice = self.voice.to_dict()

        language = self.language

        transcription: dict[str, Any] | Unset = UNSET
        if not isinstance(self.transcription, Unset):
            transcription = self.transcription.to_dict()

        interruptible: str | Unset = UNSET
        if not isinstance(self.interruptible, Unset):
            interruptible = self.interruptible.value


        dtmf = self.dtmf

        turn_taking: dict[str, Any] | Unset = UNSET
        if not isinstance(self.turn_taking, Unset):
            turn_taking = self.turn_taking.to_dict()

        engine: str | Unset = UNSET
        if not isinstance(self.engine, Unset):
            engine = self.engine.value


        analysis: dict[str, Any] | Unset = UNSET
        if not isinstance(self.analysis, Unset):
            analysis = self.analysis.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        recording: dict[str, Any] | Unset = UNSET
        if not isinstance(self.recording, Unset):
            recording = self.recording.to_dict()

        recording_consent: str | Unset = UNSET
        if not isinstance(self.recording_consent, Unset):
            recording_consent = self.recording_consent.value


        default = self.default


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "instructions": instructions,
        })
        if first_message is not UNSET:
            field_dict["first_message"] = first_message
        if model is not UNSET:
            field_dict["model"] = model
        if transfer_to is not UNSET:
            field_dict["transfer_to"] = transfer_to
        if transfer_destinations is not UNSET:
            field_dict["transfer_destinations"] = transfer_destinations
        if transfer_mode is not UNSET:
            field_dict["transfer_mode"] = transfer_mode
        if tool_ids is not UNSET:
            field_dict["tool_ids"] = tool_ids
        if connector_installation_ids is not UNSET:
            field_dict["connector_installation_ids"] = connector_installation_ids
        if enabled_tools is not UNSET:
            field_dict["enabled_tools"] = enabled_tools
        if opt_out_tool is not UNSET:
            field_dict["opt_out_tool"] = opt_out_tool
        if calling_window is not UNSET:
            field_dict["calling_window"] = calling_window
        if voicemail is not UNSET:
            field_dict["voicemail"] = voicemail
        if voice is not UNSET:
            field_dict["voice"] = voice
        if language is not UNSET:
            field_dict["language"] = language
        if transcription is not UNSET:
            field_dict["transcription"] = transcription
        if interruptible is not UNSET:
            field_dict["interruptible"] = interruptible
        if dtmf is not UNSET:
            field_dict["dtmf"] = dtmf
        if turn_taking is not UNSET:
            field_dict["turn_taking"] = turn_taking
        if engine is not UNSET:
            field_dict["engine"] = engine
        if analysis is not UNSET:
            field_dict["analysis"] = analysis
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if recording is not UNSET:
            field_dict["recording"] = recording
        if recording_consent is not UNSET:
            field_dict["recording_consent"] = recording_consent
        if default is not UNSET:
            field_dict["default"] = default

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_agent_body_analysis import CreateAgentBodyAnalysis # noqa: PLC0415
        from ..models.create_agent_body_calling_window import CreateAgentBodyCallingWindow # noqa: PLC0415
        from ..models.create_agent_body_metadata import CreateAgentBodyMetadata # noqa: PLC0415
        from ..models.create_agent_body_recording import CreateAgentBodyRecording # noqa: PLC0415
        from ..models.create_agent_body_transcription import CreateAgentBodyTranscription # noqa: PLC0415
        from ..models.create_agent_body_transfer_destinations_item import CreateAgentBodyTransferDestinationsItem # noqa: PLC0415
        from ..models.create_agent_body_turn_taking import CreateAgentBodyTurnTaking # noqa: PLC0415
        from ..models.create_agent_body_voice import CreateAgentBodyVoice # noqa: PLC0415
        from ..models.create_agent_body_voicemail import CreateAgentBodyVoicemail # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        instructions = d.pop("instructions")

        first_message = d.pop("first_message", UNSET)

        model = d.pop("model", UNSET)

        transfer_to = d.pop("transfer_to", UNSET)

        _transfer_destinations = d.pop("transfer_destinations", UNSET)
        transfer_destinations: list[CreateAgentBodyTransferDestinationsItem] | Unset = UNSET
        if _transfer_destinations is not UNSET:
            transfer_destinations = []
            for transfer_destinations_item_data in _transfer_destinations:
                transfer_destinations_item = CreateAgentBodyTransferDestinationsItem.from_dict(transfer_destinations_item_data)



                transfer_destinations.append(transfer_destinations_item)


        _transfer_mode = d.pop("transfer_mode", UNSET)
        transfer_mode: CreateAgentBodyTransferMode | Unset
        if isinstance(_transfer_mode,  Unset):
            transfer_mode = UNSET
        else:
            transfer_mode = CreateAgentBodyTransferMode(_transfer_mode)




        tool_ids = cast(list[str], d.pop("tool_ids", UNSET))


        connector_installation_ids = cast(list[str], d.pop("connector_installation_ids", UNSET))


        enabled_tools = cast(list[str], d.pop("enabled_tools", UNSET))


        opt_out_tool = d.pop("opt_out_tool", UNSET)

        _calling_window = d.pop("calling_window", UNSET)
        calling_window: CreateAgentBodyCallingWindow | Unset
        if isinstance(_calling_window,  Unset):
            calling_window = UNSET
        else:
            calling_window = CreateAgentBodyCallingWindow.from_dict(_calling_window)




        _voicemail = d.pop("voicemail", UNSET)
        voicemail: CreateAgentBodyVoicemail | Unset
        if isinstance(_voicemail,  Unset):
            voicemail = UNSET
        else:
            voicemail = CreateAgentBodyVoicemail.from_dict(_voicemail)




        _voice = d.pop("voice", UNSET)
        voice: CreateAgentBodyVoice | Unset
        if isinstance(_voice,  Unset):
            voice = UNSET
        else:
            voice = CreateAgentBodyVoice.from_dict(_voice)




        language = d.pop("language", UNSET)

        _transcription = d.pop("transcription", UNSET)
        transcription: CreateAgentBodyTranscription | Unset
        if isinstance(_transcription,  Unset):
            transcription = UNSET
        else:
            transcription = CreateAgentBodyTranscription.from_dict(_transcription)




        _interruptible = d.pop("interruptible", UNSET)
        interruptible: CreateAgentBodyInterruptible | Unset
        if isinstance(_interruptible,  Unset):
            interruptible = UNSET
        else:
            interruptible = CreateAgentBodyInterruptible(_interruptible)




        dtmf = d.pop("dtmf", UNSET)

        _turn_taking = d.pop("turn_taking", UNSET)
        turn_taking: CreateAgentBodyTurnTaking | Unset
        if isinstance(_turn_taking,  Unset):
            turn_taking = UNSET
        else:
            turn_taking = CreateAgentBodyTurnTaking.from_dict(_turn_taking)




        _engine = d.pop("engine", UNSET)
        engine: CreateAgentBodyEngine | Unset
        if isinstance(_engine,  Unset):
            engine = UNSET
        else:
            engine = CreateAgentBodyEngine(_engine)




        _analysis = d.pop("analysis", UNSET)
        analysis: CreateAgentBodyAnalysis | Unset
        if isinstance(_analysis,  Unset):
            analysis = UNSET
        else:
            analysis = CreateAgentBodyAnalysis.from_dict(_analysis)




        _metadata = d.pop("metadata", UNSET)
        metadata: CreateAgentBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = CreateAgentBodyMetadata.from_dict(_metadata)




        _recording = d.pop("recording", UNSET)
        recording: CreateAgentBodyRecording | Unset
        if isinstance(_recording,  Unset):
            recording = UNSET
        else:
            recording = CreateAgentBodyRecording.from_dict(_recording)




        _recording_consent = d.pop("recording_consent", UNSET)
        recording_consent: CreateAgentBodyRecordingConsent | Unset
        if isinstance(_recording_consent,  Unset):
            recording_consent = UNSET
        else:
            recording_consent = CreateAgentBodyRecordingConsent(_recording_consent)




        default = d.pop("default", UNSET)

        create_agent_body = cls(
            name=name,
            instructions=instructions,
            first_message=first_message,
            model=model,
            transfer_to=transfer_to,
            transfer_destinations=transfer_destinations,
            transfer_mode=transfer_mode,
            tool_ids=tool_ids,
            connector_installation_ids=connector_installation_ids,
            enabled_tools=enabled_tools,
            opt_out_tool=opt_out_tool,
            calling_window=calling_window,
            voicemail=voicemail,
            voice=voice,
            language=language,
            transcription=transcription,
            interruptible=interruptible,
            dtmf=dtmf,
            turn_taking=turn_taking,
            engine=engine,
            analysis=analysis,
            metadata=metadata,
            recording=recording,
            recording_consent=recording_consent,
            default=default,
        )

        return create_agent_body

