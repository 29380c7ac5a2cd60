from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_engine import AgentEngine
from ..models.agent_interruptible_type_0 import AgentInterruptibleType0
from ..models.agent_recording_consent_type_0 import AgentRecordingConsentType0
from ..models.agent_transfer_mode import AgentTransferMode
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.agent_analysis import AgentAnalysis
  from ..models.agent_calling_window import AgentCallingWindow
  from ..models.agent_metadata import AgentMetadata
  from ..models.agent_recording import AgentRecording
  from ..models.agent_transcription import AgentTranscription
  from ..models.agent_turn_taking import AgentTurnTaking
  from ..models.agent_voice import AgentVoice
  from ..models.agent_voicemail import AgentVoicemail
  from ..models.traffic_split_entry import TrafficSplitEntry
  from ..models.transfer_destination import TransferDestination





T = TypeVar("T", bound="Agent")



@_attrs_define
class Agent:
    """ An assistant: its instructions, first message, model and transfer target.

        Attributes:
            id (str):
            object_ (Literal['agent']):
            livemode (bool):
            name (str):
            instructions (str):
            first_message (None | str):
            model (None | str):
            transfer_to (None | str):
            transfer_mode (AgentTransferMode): `cold` (default): `transfer_call` hands the line over and the assistant is
                gone. `warm`: the caller waits on hold while the person is dialed and briefed with a summary; if they are busy,
                do not answer or hang up, the caller is back with the assistant.
            transfer_destinations (list[TransferDestination]): The places the assistant may transfer a caller to:
                `transfer_call` offers exactly these names (and `transfer_to`, when set, when it names none). Anything else the
                model writes is a tool error, never a transfer.
            tool_ids (list[str]): The custom tools (`tool_…`) the assistant may call besides its built-in ones.
            connector_installation_ids (list[str]): The connector installations (`cinst_…`) whose tools the assistant may
                call.
            enabled_tools (list[str]): Optional built-in tools the assistant offers besides the ones every agent has:
                `schedule_callback` (calls back later, on calls and WhatsApp/SMS), `send_dtmf` (presses keys on a phone call, to
                navigate a phone menu).
            opt_out_tool (bool): Whether its calls offer the built-in `opt_out` tool (default true): when the person asks
                not to be called again, the assistant records it (the contact becomes `do_not_call`, the number goes on the do-
                not-call list, `contact.opted_out` is emitted), confirms and ends the call.
            calling_window (AgentCallingWindow | None): When the agent's scheduled calls and promised callbacks may ring, in
                the callee's local time; null: any time (live +1 numbers: 08:00–21:00).
            voicemail (AgentVoicemail | None):
            analysis (AgentAnalysis | None): What to learn from each of the agent's calls once it has ended; null: nothing.
                A call's own `analysis` replaces it.
            voice (AgentVoice | None):
            language (None | str): BCP 47 tag of the assistant's speech; null: the provider's default.
            transcription (AgentTranscription | None):
            interruptible (AgentInterruptibleType0 | None): What may interrupt the assistant while it speaks on a phone
                call: the caller's speech or keys (`any`), `speech`, or `none`; null: `any`.
            dtmf (bool | None): Whether the caller's keypresses are heard on phone calls (ConversationRelay
                `dtmfDetection`).
            turn_taking (AgentTurnTaking | None):
            engine (AgentEngine): What carries its phone calls: `pipeline` (default: speech recognized and spoken by
                ConversationRelay, the answer written by the chat model) or `realtime` (OpenAI's speech-to-speech Realtime API
                over SIP; audio never passes through the service; needs the operator's `OPENAI_REALTIME_PROJECT_ID` and
                `OPENAI_WEBHOOK_SECRET`).
            metadata (AgentMetadata): Your key-value pairs (at most 50 keys).
            recording (AgentRecording | None): Whether its calls are recorded; null: not recorded.
            recording_consent (AgentRecordingConsentType0 | None): How a recorded call gets consent: `announce` (the opening
                says the call is recorded), `ask` (recorded only after the caller says yes), `off` (not recorded, nothing said);
                null: `announce` when either number is in an all-party-consent US state or the EU/EEA, the UK (and GG, JE, IM),
                CA or AU, else no consent step.
            version (int): The published version: the one new calls and conversations use when there is no `traffic_split`.
            latest_version (int): The newest version (a draft when it is above `version`).
            traffic_split (list[TrafficSplitEntry] | None): Shares of new calls and conversations by version, per contact;
                null: all use `version`.
            created (int): Unix time in seconds.
            default (bool | Unset): Whether this agent answers numbers connected without one.
     """

    id: str
    object_: Literal['agent']
    livemode: bool
    name: str
    instructions: str
    first_message: None | str
    model: None | str
    transfer_to: None | str
    transfer_mode: AgentTransferMode
    transfer_destinations: list[TransferDestination]
    tool_ids: list[str]
    connector_installation_ids: list[str]
    enabled_tools: list[str]
    opt_out_tool: bool
    calling_window: AgentCallingWindow | None
    voicemail: AgentVoicemail | None
    analysis: AgentAnalysis | None
    voice: AgentVoice | None
    language: None | str
    transcription: AgentTranscription | None
    interruptible: AgentInterruptibleType0 | None
    dtmf: bool | None
    turn_taking: AgentTurnTaking | None
    engine: AgentEngine
    metadata: AgentMetadata
    recording: AgentRecording | None
    recording_consent: AgentRecordingConsentType0 | None
    version: int
    latest_version: int
    traffic_split: list[TrafficSplitEntry] | None
    created: int
    default: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_analysis import AgentAnalysis # noqa: PLC0415
        from ..models.agent_calling_window import AgentCallingWindow # noqa: PLC0415
        from ..models.agent_metadata import AgentMetadata # noqa: PLC0415
        from ..models.agent_recording import AgentRecording # noqa: PLC0415
        from ..models.agent_transcription import AgentTranscription # noqa: PLC0415
        from ..models.agent_turn_taking import AgentTurnTaking # noqa: PLC0415
        from ..models.agent_voice import AgentVoice # noqa: PLC0415
        from ..models.agent_voicemail import AgentVoicemail # noqa: PLC0415
        from ..models.traffic_split_entry import TrafficSplitEntry # noqa: PLC0415
        from ..models.transfer_destination import TransferDestination # noqa: PLC0415
        id = self.id

        object_ = self.object_

        livemode = self.livemode

        name = self.name

        instructions = self.instructions

        first_message: None | str
        first_message = self.first_message

        model: None | str
        model = self.model

        transfer_to: None | str
        transfer_to = self.transfer_to

        transfer_mode = self.transfer_mode.value

        transfer_destinations = []
        for transfer_destinations_item_data in self.transfer_destinations:
            transfer_destinations_item = transfer_destinations_item_data.to_dict()
            transfer_destinations.append(transfer_destinations_item)



        tool_ids = self.tool_ids



        connector_installation_ids = self.connector_installation_ids



        enabled_tools = self.enabled_tools



        opt_out_tool = self.opt_out_tool

        calling_window: dict[str, Any] | None
        if isinstance(self.calling_window, AgentCallingWindow):
            calling_window = self.calling_window.to_dict()
        else:
            calling_window = self.calling_window

        voicemail: dict[str, Any] | None
        if isinstance(self.voicemail, AgentVoicemail):
            voicemail = self.voicemail.to_dict()
        else:
            voicemail = self.voicemail

        analysis: dict[str, Any] | None
        if isinstance(self.analysis, AgentAnalysis):
            analysis = self.analysis.to_dict()
        else:
            analysis = self.analysis

        voice: dict[str, Any] | None
        if isinstance(self.voice, AgentVoice):
            voice = self.voice.to_dict()
        else:
            voice = self.voice

        language: None | str
        language = self.language

        transcription: dict[str, Any] | None
        if isinstance(self.transcription, AgentTranscription):
            transcription = self.transcription.to_dict()
        else:
            transcription = self.transcription

        interruptible: None | str
        if isinstance(self.interruptible, AgentInterruptibleType0):
            interruptible = self.interruptible.value
        else:
            interruptible = self.interruptible

        dtmf: bool | None
        dtmf = self.dtmf

        turn_taking: dict[str, Any] | None
        if isinstance(self.turn_taking, AgentTurnTaking):
            turn_taking = self.turn_taking.to_dict()
        else:
            turn_taking = self.turn_taking

        engine = self.engine.value

        metadata = self.metadata.to_dict()

        recording: dict[str, Any] | None
        if isinstance(self.recording, AgentRecording):
            recording = self.recording.to_dict()
        else:
            recording = self.recording

        recording_consent: None | str
        if isinstance(self.recording_consent, AgentRecordingConsentType0):
            recording_consent = self.recording_consent.value
        else:
            recording_consent = self.recording_consent

        version = self.version

        latest_version = self.latest_version

        traffic_split: list[dict[str, Any]] | None
        if isinstance(self.traffic_split, list):
            traffic_split = []
            for traffic_split_type_0_item_data in self.traffic_split:
                traffic_split_type_0_item = traffic_split_type_0_item_data.to_dict()
                traffic_split.append(traffic_split_type_0_item)


        else:
            traffic_split = self.traffic_split

        created = self.created

        default = self.default


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "object": object_,
            "livemode": livemode,
            "name": name,
            "instructions": instructions,
            "first_message": first_message,
            "model": model,
            "transfer_to": transfer_to,
            "transfer_mode": transfer_mode,
            "transfer_destinations": transfer_destinations,
            "tool_ids": tool_ids,
            "connector_installation_ids": connector_installation_ids,
            "enabled_tools": enabled_tools,
            "opt_out_tool": opt_out_tool,
            "calling_window": calling_window,
            "voicemail": voicemail,
            "analysis": analysis,
            "voice": voice,
            "language": language,
            "transcription": transcription,
            "interruptible": interruptible,
            "dtmf": dtmf,
            "turn_taking": turn_taking,
            "engine": engine,
            "metadata": metadata,
            "recording": recording,
            "recording_consent": recording_consent,
            "version": version,
            "latest_version": latest_version,
            "traffic_split": traffic_split,
            "created": created,
        })
        if default is not UNSET:
            field_dict["default"] = default

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_analysis import AgentAnalysis # noqa: PLC0415
        from ..models.agent_calling_window import AgentCallingWindow # noqa: PLC0415
        from ..models.agent_metadata import AgentMetadata # noqa: PLC0415
        from ..models.agent_recording import AgentRecording # noqa: PLC0415
        from ..models.agent_transcription import AgentTranscription # noqa: PLC0415
        from ..models.agent_turn_taking import AgentTurnTaking # noqa: PLC0415
        from ..models.agent_voice import AgentVoice # noqa: PLC0415
        from ..models.agent_voicemail import AgentVoicemail # noqa: PLC0415
        from ..models.traffic_split_entry import TrafficSplitEntry # noqa: PLC0415
        from ..models.transfer_destination import TransferDestination # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal['agent'] , d.pop("object"))
        if object_ != 'agent':
            raise ValueError(f"object must match const 'agent', got '{object_}'")

        livemode = d.pop("livemode")

        name = d.pop("name")

        instructions = d.pop("instructions")

        def _parse_first_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        first_message = _parse_first_message(d.pop("first_message"))


        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))


        def _parse_transfer_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        transfer_to = _parse_transfer_to(d.pop("transfer_to"))


        transfer_mode = AgentTransferMode(d.pop("transfer_mode"))




        transfer_destinations = []
        _transfer_destinations = d.pop("transfer_destinations")
        for transfer_destinations_item_data in (_transfer_destinations):
            transfer_destinations_item = TransferDestination.from_dict(transfer_destinations_item_data)



            transfer_destinations.append(transfer_destinations_item)


        tool_ids = cast(list[str], d.pop("tool_ids"))


        connector_installation_ids = cast(list[str], d.pop("connector_installation_ids"))


        enabled_tools = cast(list[str], d.pop("enabled_tools"))


        opt_out_tool = d.pop("opt_out_tool")

        def _parse_calling_window(data: object) -> AgentCallingWindow | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calling_window_type_0 = AgentCallingWindow.from_dict(data)



                return calling_window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentCallingWindow | None, data)

        calling_window = _parse_calling_window(d.pop("calling_window"))


        def _parse_voicemail(data: object) -> AgentVoicemail | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voicemail_type_0 = AgentVoicemail.from_dict(data)



                return voicemail_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVoicemail | None, data)

        voicemail = _parse_voicemail(d.pop("voicemail"))


        def _parse_analysis(data: object) -> AgentAnalysis | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                analysis_type_0 = AgentAnalysis.from_dict(data)



                return analysis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentAnalysis | None, data)

        analysis = _parse_analysis(d.pop("analysis"))


        def _parse_voice(data: object) -> AgentVoice | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voice_type_0 = AgentVoice.from_dict(data)



                return voice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVoice | None, data)

        voice = _parse_voice(d.pop("voice"))


        def _parse_language(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        language = _parse_language(d.pop("language"))


        def _parse_transcription(data: object) -> AgentTranscription | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                transcription_type_0 = AgentTranscription.from_dict(data)



                return transcription_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentTranscription | None, data)

        transcription = _parse_transcription(d.pop("transcription"))


        def _parse_interruptible(data: object) -> AgentInterruptibleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interruptible_type_0 = AgentInterruptibleType0(data)



                return interruptible_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentInterruptibleType0 | None, data)

        interruptible = _parse_interruptible(d.pop("interruptible"))


        def _parse_dtmf(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        dtmf = _parse_dtmf(d.pop("dtmf"))


        def _parse_turn_taking(data: object) -> AgentTurnTaking | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                turn_taking_type_0 = AgentTurnTaking.from_dict(data)



                return turn_taking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentTurnTaking | None, data)

        turn_taking = _parse_turn_taking(d.pop("turn_taking"))


        engine = AgentEngine(d.pop("engine"))




        metadata = AgentMetadata.from_dict(d.pop("metadata"))




        def _parse_recording(data: object) -> AgentRecording | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recording_type_0 = AgentRecording.from_dict(data)



                return recording_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentRecording | None, data)

        recording = _parse_recording(d.pop("recording"))


        def _parse_recording_consent(data: object) -> AgentRecordingConsentType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recording_consent_type_0 = AgentRecordingConsentType0(data)



                return recording_consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentRecordingConsentType0 | None, data)

        recording_consent = _parse_recording_consent(d.pop("recording_consent"))


        version = d.pop("version")

        latest_version = d.pop("latest_version")

        def _parse_traffic_split(data: object) -> list[TrafficSplitEntry] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                traffic_split_type_0 = []
                _traffic_split_type_0 = data
                for traffic_split_type_0_item_data in (_traffic_split_type_0):
                    traffic_split_type_0_item = TrafficSplitEntry.from_dict(traffic_split_type_0_item_data)



                    traffic_split_type_0.append(traffic_split_type_0_item)

                return traffic_split_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TrafficSplitEntry] | None, data)

        traffic_split = _parse_traffic_split(d.pop("traffic_split"))


        created = d.pop("created")

        default = d.pop("default", UNSET)

        agent = cls(
            id=id,
            object_=object_,
            livemode=livemode,
            name=name,
            instructions=instructions,
            first_message=first_message,
            model=model,
            transfer_to=transfer_to,
            transfer_mode=transfer_mode,
            transfer_destinations=transfer_destinations,
            tool_ids=tool_ids,
            connector_installation_ids=connector_installation_ids,
            enabled_tools=enabled_tools,
            opt_out_tool=opt_out_tool,
            calling_window=calling_window,
            voicemail=voicemail,
            analysis=analysis,
            voice=voice,
            language=language,
            transcription=transcription,
            interruptible=interruptible,
            dtmf=dtmf,
            turn_taking=turn_taking,
            engine=engine,
            metadata=metadata,
            recording=recording,
            recording_consent=recording_consent,
            version=version,
            latest_version=latest_version,
            traffic_split=traffic_split,
            created=created,
            default=default,
        )


        agent.additional_properties = d
        return agent

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
