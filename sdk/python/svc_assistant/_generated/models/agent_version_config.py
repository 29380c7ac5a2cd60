from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_version_config_engine import AgentVersionConfigEngine
from ..models.agent_version_config_interruptible_type_0 import AgentVersionConfigInterruptibleType0
from ..models.agent_version_config_recording_consent_type_0 import AgentVersionConfigRecordingConsentType0
from ..models.agent_version_config_transfer_mode import AgentVersionConfigTransferMode
from typing import cast

if TYPE_CHECKING:
  from ..models.agent_version_config_analysis import AgentVersionConfigAnalysis
  from ..models.agent_version_config_calling_window import AgentVersionConfigCallingWindow
  from ..models.agent_version_config_recording import AgentVersionConfigRecording
  from ..models.agent_version_config_transcription import AgentVersionConfigTranscription
  from ..models.agent_version_config_turn_taking import AgentVersionConfigTurnTaking
  from ..models.agent_version_config_voice import AgentVersionConfigVoice
  from ..models.agent_version_config_voicemail import AgentVersionConfigVoicemail
  from ..models.transfer_destination import TransferDestination





T = TypeVar("T", bound="AgentVersionConfig")



@_attrs_define
class AgentVersionConfig:
    """ The configuration of the agent this version fixes (the fields of the agent object that it covers).

        Attributes:
            name (str):
            instructions (str):
            first_message (None | str):
            model (None | str):
            transfer_to (None | str):
            transfer_mode (AgentVersionConfigTransferMode): `cold` (default): `transfer_call` hands the line over and the
                assistant is gone. `warm`: the caller waits on hold while the person is dialed and briefed with a summary; if
                they are busy, do not answer or hang up, the caller is back with the assistant.
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
            calling_window (AgentVersionConfigCallingWindow | None): When the agent's scheduled calls and promised callbacks
                may ring, in the callee's local time; null: any time (live +1 numbers: 08:00–21:00).
            voicemail (AgentVersionConfigVoicemail | None):
            recording (AgentVersionConfigRecording | None): Whether its calls are recorded; null: not recorded.
            recording_consent (AgentVersionConfigRecordingConsentType0 | None): How a recorded call gets consent: `announce`
                (the opening says the call is recorded), `ask` (recorded only after the caller says yes), `off` (not recorded,
                nothing said); null: `announce` when either number is in an all-party-consent US state or the EU/EEA, the UK
                (and GG, JE, IM), CA or AU, else no consent step.
            analysis (AgentVersionConfigAnalysis | None): What to learn from each of the agent's calls once it has ended;
                null: nothing. A call's own `analysis` replaces it.
            voice (AgentVersionConfigVoice | None):
            language (None | str): BCP 47 tag of the assistant's speech; null: the provider's default.
            transcription (AgentVersionConfigTranscription | None):
            interruptible (AgentVersionConfigInterruptibleType0 | None): What may interrupt the assistant while it speaks on
                a phone call: the caller's speech or keys (`any`), `speech`, or `none`; null: `any`.
            dtmf (bool | None): Whether the caller's keypresses are heard on phone calls (ConversationRelay
                `dtmfDetection`).
            turn_taking (AgentVersionConfigTurnTaking | None):
            engine (AgentVersionConfigEngine): What carries its phone calls: `pipeline` (default: speech recognized and
                spoken by ConversationRelay, the answer written by the chat model) or `realtime` (OpenAI's speech-to-speech
                Realtime API over SIP; audio never passes through the service; needs the operator's `OPENAI_REALTIME_PROJECT_ID`
                and `OPENAI_WEBHOOK_SECRET`).
     """

    name: str
    instructions: str
    first_message: None | str
    model: None | str
    transfer_to: None | str
    transfer_mode: AgentVersionConfigTransferMode
    transfer_destinations: list[TransferDestination]
    tool_ids: list[str]
    connector_installation_ids: list[str]
    enabled_tools: list[str]
    opt_out_tool: bool
    calling_window: AgentVersionConfigCallingWindow | None
    voicemail: AgentVersionConfigVoicemail | None
    recording: AgentVersionConfigRecording | None
    recording_consent: AgentVersionConfigRecordingConsentType0 | None
    analysis: AgentVersionConfigAnalysis | None
    voice: AgentVersionConfigVoice | None
    language: None | str
    transcription: AgentVersionConfigTranscription | None
    interruptible: AgentVersionConfigInterruptibleType0 | None
    dtmf: bool | None
    turn_taking: AgentVersionConfigTurnTaking | None
    engine: AgentVersionConfigEngine
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_version_config_analysis import AgentVersionConfigAnalysis # noqa: PLC0415
        from ..models.agent_version_config_calling_window import AgentVersionConfigCallingWindow # noqa: PLC0415
        from ..models.agent_version_config_recording import AgentVersionConfigRecording # noqa: PLC0415
        from ..models.agent_version_config_transcription import AgentVersionConfigTranscription # noqa: PLC0415
        from ..models.agent_version_config_turn_taking import AgentVersionConfigTurnTaking # noqa: PLC0415
        from ..models.agent_version_config_voice import AgentVersionConfigVoice # noqa: PLC0415
        from ..models.agent_version_config_voicemail import AgentVersionConfigVoicemail # noqa: PLC0415
        from ..models.transfer_destination import TransferDestination # noqa: PLC0415
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
        if isinstance(self.calling_window, AgentVersionConfigCallingWindow):
            calling_window = self.calling_window.to_dict()
        else:
            calling_window = self.calling_window

        voicemail: dict[str, Any] | None
        if isinstance(self.voicemail, AgentVersionConfigVoicemail):
            voicemail = self.voicemail.to_dict()
        else:
            voicemail = self.voicemail

        recording: dict[str, Any] | None
        if isinstance(self.recording, AgentVersionConfigRecording):
            recording = self.recording.to_dict()
        else:
            recording = self.recording

        recording_consent: None | str
        if isinstance(self.recording_consent, AgentVersionConfigRecordingConsentType0):
            recording_consent = self.recording_consent.value
        else:
            recording_consent = self.recording_consent

        analysis: dict[str, Any] | None
        if isinstance(self.analysis, AgentVersionConfigAnalysis):
            analysis = self.analysis.to_dict()
        else:
            analysis = self.analysis

        voice: dict[str, Any] | None
        if isinstance(self.voice, AgentVersionConfigVoice):
            voice = self.voice.to_dict()
        else:
            voice = self.voice

        language: None | str
        language = self.language

        transcription: dict[str, Any] | None
        if isinstance(self.transcription, AgentVersionConfigTranscription):
            transcription = self.transcription.to_dict()
        else:
            transcription = self.transcription

        interruptible: None | str
        if isinstance(self.interruptible, AgentVersionConfigInterruptibleType0):
            interruptible = self.interruptible.value
        else:
            interruptible = self.interruptible

        dtmf: bool | None
        dtmf = self.dtmf

        turn_taking: dict[str, Any] | None
        if isinstance(self.turn_taking, AgentVersionConfigTurnTaking):
            turn_taking = self.turn_taking.to_dict()
        else:
            turn_taking = self.turn_taking

        engine = self.engine.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
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
            "recording": recording,
            "recording_consent": recording_consent,
            "analysis": analysis,
            "voice": voice,
            "language": language,
            "transcription": transcription,
            "interruptible": interruptible,
            "dtmf": dtmf,
            "turn_taking": turn_taking,
            "engine": engine,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_version_config_analysis import AgentVersionConfigAnalysis # noqa: PLC0415
        from ..models.agent_version_config_calling_window import AgentVersionConfigCallingWindow # noqa: PLC0415
        from ..models.agent_version_config_recording import AgentVersionConfigRecording # noqa: PLC0415
        from ..models.agent_version_config_transcription import AgentVersionConfigTranscription # noqa: PLC0415
        from ..models.agent_version_config_turn_taking import AgentVersionConfigTurnTaking # noqa: PLC0415
        from ..models.agent_version_config_voice import AgentVersionConfigVoice # noqa: PLC0415
        from ..models.agent_version_config_voicemail import AgentVersionConfigVoicemail # noqa: PLC0415
        from ..models.transfer_destination import TransferDestination # noqa: PLC0415
        d = dict(src_dict)
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


        transfer_mode = AgentVersionConfigTransferMode(d.pop("transfer_mode"))




        transfer_destinations = []
        _transfer_destinations = d.pop("transfer_destinations")
        for transfer_destinations_item_data in (_transfer_destinations):
            transfer_destinations_item = TransferDestination.from_dict(transfer_destinations_item_data)



            transfer_destinations.append(transfer_destinations_item)


        tool_ids = cast(list[str], d.pop("tool_ids"))


        connector_installation_ids = cast(list[str], d.pop("connector_installation_ids"))


        enabled_tools = cast(list[str], d.pop("enabled_tools"))


        opt_out_tool = d.pop("opt_out_tool")

        def _parse_calling_window(data: object) -> AgentVersionConfigCallingWindow | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calling_window_type_0 = AgentVersionConfigCallingWindow.from_dict(data)



                return calling_window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigCallingWindow | None, data)

        calling_window = _parse_calling_window(d.pop("calling_window"))


        def _parse_voicemail(data: object) -> AgentVersionConfigVoicemail | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voicemail_type_0 = AgentVersionConfigVoicemail.from_dict(data)



                return voicemail_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigVoicemail | None, data)

        voicemail = _parse_voicemail(d.pop("voicemail"))


        def _parse_recording(data: object) -> AgentVersionConfigRecording | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recording_type_0 = AgentVersionConfigRecording.from_dict(data)



                return recording_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigRecording | None, data)

        recording = _parse_recording(d.pop("recording"))


        def _parse_recording_consent(data: object) -> AgentVersionConfigRecordingConsentType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recording_consent_type_0 = AgentVersionConfigRecordingConsentType0(data)



                return recording_consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigRecordingConsentType0 | None, data)

        recording_consent = _parse_recording_consent(d.pop("recording_consent"))


        def _parse_analysis(data: object) -> AgentVersionConfigAnalysis | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                analysis_type_0 = AgentVersionConfigAnalysis.from_dict(data)



                return analysis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigAnalysis | None, data)

        analysis = _parse_analysis(d.pop("analysis"))


        def _parse_voice(data: object) -> AgentVersionConfigVoice | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voice_type_0 = AgentVersionConfigVoice.from_dict(data)



                return voice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigVoice | None, data)

        voice = _parse_voice(d.pop("voice"))


        def _parse_language(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        language = _parse_language(d.pop("language"))


        def _parse_transcription(data: object) -> AgentVersionConfigTranscription | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                transcription_type_0 = AgentVersionConfigTranscription.from_dict(data)



                return transcription_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigTranscription | None, data)

        transcription = _parse_transcription(d.pop("transcription"))


        def _parse_interruptible(data: object) -> AgentVersionConfigInterruptibleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interruptible_type_0 = AgentVersionConfigInterruptibleType0(data)



                return interruptible_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigInterruptibleType0 | None, data)

        interruptible = _parse_interruptible(d.pop("interruptible"))


        def _parse_dtmf(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        dtmf = _parse_dtmf(d.pop("dtmf"))


        def _parse_turn_taking(data: object) -> AgentVersionConfigTurnTaking | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                turn_taking_type_0 = AgentVersionConfigTurnTaking.from_dict(data)



                return turn_taking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentVersionConfigTurnTaking | None, data)

        turn_taking = _parse_turn_taking(d.pop("turn_taking"))


        engine = AgentVersionConfigEngine(d.pop("engine"))




        agent_version_config = cls(
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
            recording=recording,
            recording_consent=recording_consent,
            analysis=analysis,
            voice=voice,
            language=language,
            transcription=transcription,
            interruptible=interruptible,
            dtmf=dtmf,
            turn_taking=turn_taking,
            engine=engine,
        )


        agent_version_config.additional_properties = d
        return agent_version_config

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
