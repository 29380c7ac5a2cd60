from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_agent_body_engine import UpdateAgentBodyEngine
from ..models.update_agent_body_interruptible_type_0 import UpdateAgentBodyInterruptibleType0
from ..models.update_agent_body_recording_consent_type_0 import UpdateAgentBodyRecordingConsentType0
from ..models.update_agent_body_transfer_mode import UpdateAgentBodyTransferMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.update_agent_body_analysis_type_0 import UpdateAgentBodyAnalysisType0
  from ..models.update_agent_body_calling_window_type_0 import UpdateAgentBodyCallingWindowType0
  from ..models.update_agent_body_metadata import UpdateAgentBodyMetadata
  from ..models.update_agent_body_recording_type_0 import UpdateAgentBodyRecordingType0
  from ..models.update_agent_body_traffic_split_type_0_item import UpdateAgentBodyTrafficSplitType0Item
  from ..models.update_agent_body_transcription_type_0 import UpdateAgentBodyTranscriptionType0
  from ..models.update_agent_body_transfer_destinations_type_0_item import UpdateAgentBodyTransferDestinationsType0Item
  from ..models.update_agent_body_turn_taking_type_0 import UpdateAgentBodyTurnTakingType0
  from ..models.update_agent_body_voice_type_0 import UpdateAgentBodyVoiceType0
  from ..models.update_agent_body_voicemail_type_0 import UpdateAgentBodyVoicemailType0





T = TypeVar("T", bound="UpdateAgentBody")



@_attrs_define
class UpdateAgentBody:
    """ 
        Attributes:
            name (str | Unset):
            instructions (str | Unset):
            first_message (None | str | Unset):
            model (None | str | Unset):
            transfer_to (None | str | Unset):
            transfer_destinations (list[UpdateAgentBodyTransferDestinationsType0Item] | None | Unset):
            transfer_mode (UpdateAgentBodyTransferMode | Unset): How the `transfer_call` tool transfers: `cold` (default)
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
            calling_window (None | Unset | UpdateAgentBodyCallingWindowType0):
            voicemail (None | Unset | UpdateAgentBodyVoicemailType0):
            voice (None | Unset | UpdateAgentBodyVoiceType0):
            language (None | str | Unset):
            transcription (None | Unset | UpdateAgentBodyTranscriptionType0):
            interruptible (None | Unset | UpdateAgentBodyInterruptibleType0):
            dtmf (bool | None | Unset):
            turn_taking (None | Unset | UpdateAgentBodyTurnTakingType0):
            engine (UpdateAgentBodyEngine | Unset): What carries its phone calls: `pipeline` (default) or `realtime`
                (OpenAI's Realtime API over SIP, speech to speech). `realtime` is refused (400 naming `engine`) unless the
                operator configured an OpenAI project (`OPENAI_REALTIME_PROJECT_ID`, `OPENAI_WEBHOOK_SECRET`), and with
                `recording_consent: "ask"` (400 naming the field this request gives: the caller's answer must be heard before
                the model speaks).
            analysis (None | Unset | UpdateAgentBodyAnalysisType0):
            metadata (UpdateAgentBodyMetadata | Unset):
            recording (None | Unset | UpdateAgentBodyRecordingType0):
            recording_consent (None | Unset | UpdateAgentBodyRecordingConsentType0):
            default (bool | Unset):
            publish (bool | Unset): `false` makes the change a draft version (tests and traffic splits may use it) and
                leaves the published one, which new calls use, as it is. Default true.
            traffic_split (list[UpdateAgentBodyTrafficSplitType0Item] | None | Unset): Shares of new calls and conversations
                by version (weights add to 100), picked per contact (the same person keeps the same version); null removes the
                split.
     """

    name: str | Unset = UNSET
    instructions: str | Unset = UNSET
    first_message: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    transfer_to: None | str | Unset = UNSET
    transfer_destinations: list[UpdateAgentBodyTransferDestinationsType0Item] | None | Unset = UNSET
    transfer_mode: UpdateAgentBodyTransferMode | Unset = UNSET
    tool_ids: list[str] | Unset = UNSET
    connector_installation_ids: list[str] | Unset = UNSET
    enabled_tools: list[str] | Unset = UNSET
    opt_out_tool: bool | Unset = UNSET
    calling_window: None | Unset | UpdateAgentBodyCallingWindowType0 = UNSET
    voicemail: None | Unset | UpdateAgentBodyVoicemailType0 = UNSET
    voice: None | Unset | UpdateAgentBodyVoiceType0 = UNSET
    language: None | str | Unset = UNSET
    transcription: None | Unset | UpdateAgentBodyTranscriptionType0 = UNSET
    interruptible: None | Unset | UpdateAgentBodyInterruptibleType0 = UNSET
    dtmf: bool | None | Unset = UNSET
    turn_taking: None | Unset | UpdateAgentBodyTurnTakingType0 = UNSET
    engine: UpdateAgentBodyEngine | Unset = UNSET
    analysis: None | Unset | UpdateAgentBodyAnalysisType0 = UNSET
    metadata: UpdateAgentBodyMetadata | Unset = UNSET
    recording: None | Unset | UpdateAgentBodyRecordingType0 = UNSET
    recording_consent: None | Unset | UpdateAgentBodyRecordingConsentType0 = UNSET
    default: bool | Unset = UNSET
    publish: bool | Unset = UNSET
    traffic_split: list[UpdateAgentBodyTrafficSplitType0Item] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_agent_body_analysis_type_0 import UpdateAgentBodyAnalysisType0 # noqa: PLC0415
        from ..models.update_agent_body_calling_window_type_0 import UpdateAgentBodyCallingWindowType0 # noqa: PLC0415
        from ..models.update_agent_body_metadata import UpdateAgentBodyMetadata # noqa: PLC0415
        from ..models.update_agent_body_recording_type_0 import UpdateAgentBodyRecordingType0 # noqa: PLC0415
        from ..models.update_agent_body_traffic_split_type_0_item import UpdateAgentBodyTrafficSplitType0Item # noqa: PLC0415
        from ..models.update_agent_body_transcription_type_0 import UpdateAgentBodyTranscriptionType0 # noqa: PLC0415
        from ..models.update_agent_body_transfer_destinations_type_0_item import UpdateAgentBodyTransferDestinationsType0Item # noqa: PLC0415
        from ..models.update_agent_body_turn_taking_type_0 import UpdateAgentBodyTurnTakingType0 # noqa: PLC0415
        from ..models.update_agent_body_voice_type_0 import UpdateAgentBodyVoiceType0 # noqa: PLC0415
        from ..models.update_agent_body_voicemail_type_0 import UpdateAgentBodyVoicemailType0 # noqa: PLC0415
        name = self.name

        instructions = self.instructions

        first_message: None | str | Unset
        if isinstance(self.first_message, Unset):
            first_message = UNSET
        else:
            first_message = self.first_message

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        transfer_to: None | str | Unset
        if isinstance(self.transfer_to, Unset):
            transfer_to = UNSET
        else:
            transfer_to = self.transfer_to

        transfer_destinations: list[dict[str, Any]] | None | Unset
        if isinstance(self.transfer_destinations, Unset):
            transfer_destinations = UNSET
        elif isinstance(self.transfer_destinations, list):
            transfer_destinations = []
            for transfer_destinations_type_0_item_data in self.transfer_destinations:
                transfer_destinations_type_0_item = transfer_destinations_type_0_item_data.to_dict()
                transfer_destinations.append(transfer_destinations_type_0_item)


        else:
            transfer_destinations = self.transfer_destinations

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

        calling_window: dict[str, Any] | None | Unset
        if isinstance(self.calling_window, Unset):
            calling_window = UNSET
        elif isinstance(self.calling_window, UpdateAgentBodyCallingWindowType0):
            calling_window = self.calling_window.to_dict()
        else:
            calling_window = self.calling_window

        voicemail: dict[str, Any] | None | Unset
        if isinstance(self.voicemail, Unset):
            voicemail = UNSET
        elif isinstance(self.voicemail, UpdateAgentBodyVoicemailType0):
            voicemail = self.voicemail.to_dict()
        else:
            voicemail = self.voicemail

        voice: dict[str, Any] | None | Unset
        if isinstance(self.voice, Unset):
            voice = UNSET
        elif isinstance(self.voice, UpdateAgentBodyVoiceType0):
            voice = self.voice.to_dict()
        else:
            voice = self.voice

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        else:
            language = self.language

        transcription: dict[str, Any] | None | Unset
        if isinstance(self.transcription, Unset):
            transcription = UNSET
        elif isinstance(self.transcription, UpdateAgentBodyTranscriptionType0):
            transcription = self.transcription.to_dict()
        else:
            transcription = self.transcription

        interruptible: None | str | Unset
        if isinstance(self.interruptible, Unset):
            interruptible = UNSET
        elif isinstance(self.interruptible, UpdateAgentBodyInterruptibleType0):
            interruptible = self.interruptible.value
        else:
            interruptible = self.interruptible

        dtmf: bool | None | Unset
        if isinstance(self.dtmf, Unset):
            dtmf = UNSET
        else:
            dtmf = self.dtmf

        turn_taking: dict[str, Any] | None | Unset
        if isinstance(self.turn_taking, Unset):
            turn_taking = UNSET
        elif isinstance(self.turn_taking, UpdateAgentBodyTurnTakingType0):
            turn_taking = self.turn_taking.to_dict()
        else:
            turn_taking = self.turn_taking

        engine: str | Unset = UNSET
        if not isinstance(self.engine, Unset):
            engine = self.engine.value


        analysis: dict[str, Any] | None | Unset
        if isinstance(self.analysis, Unset):
            analysis = UNSET
        elif isinstance(self.analysis, UpdateAgentBodyAnalysisType0):
            analysis = self.analysis.to_dict()
        else:
            analysis = self.analysis

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        recording: dict[str, Any] | None | Unset
        if isinstance(self.recording, Unset):
            recording = UNSET
        elif isinstance(self.recording, UpdateAgentBodyRecordingType0):
            recording = self.recording.to_dict()
        else:
            recording = self.recording

        recording_consent: None | str | Unset
        if isinstance(self.recording_consent, Unset):
            recording_consent = UNSET
        elif isinstance(self.recording_consent, UpdateAgentBodyRecordingConsentType0):
            recording_consent = self.recording_consent.value
        else:
            recording_consent = self.recording_consent

        default = self.default

        publish = self.publish

        traffic_split: list[dict[str, Any]] | None | Unset
        if isinstance(self.traffic_split, Unset):
            traffic_split = UNSET
        elif isinstance(self.traffic_split, list):
            traffic_split = []
            for traffic_split_type_0_item_data in self.traffic_split:
                traffic_split_type_0_item = traffic_split_type_0_item_data.to_dict()
                traffic_split.append(traffic_split_type_0_item)


        else:
            traffic_split = self.traffic_split


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
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
        if publish is not UNSET:
            field_dict["publish"] = publish
        if traffic_split is not UNSET:
            field_dict["traffic_split"] = traffic_split

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_agent_body_analysis_type_0 import UpdateAgentBodyAnalysisType0 # noqa: PLC0415
        from ..models.update_agent_body_calling_window_type_0 import UpdateAgentBodyCallingWindowType0 # noqa: PLC0415
        from ..models.update_agent_body_metadata import UpdateAgentBodyMetadata # noqa: PLC0415
        from ..models.update_agent_body_recording_type_0 import UpdateAgentBodyRecordingType0 # noqa: PLC0415
        from ..models.update_agent_body_traffic_split_type_0_item import UpdateAgentBodyTrafficSplitType0Item # noqa: PLC0415
        from ..models.update_agent_body_transcription_type_0 import UpdateAgentBodyTranscriptionType0 # noqa: PLC0415
        from ..models.update_agent_body_transfer_destinations_type_0_item import UpdateAgentBodyTransferDestinationsType0Item # noqa: PLC0415
        from ..models.update_agent_body_turn_taking_type_0 import UpdateAgentBodyTurnTakingType0 # noqa: PLC0415
        from ..models.update_agent_body_voice_type_0 import UpdateAgentBodyVoiceType0 # noqa: PLC0415
        from ..models.update_agent_body_voicemail_type_0 import UpdateAgentBodyVoicemailType0 # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        instructions = d.pop("instructions", UNSET)

        def _parse_first_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_message = _parse_first_message(d.pop("first_message", UNSET))


        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_transfer_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transfer_to = _parse_transfer_to(d.pop("transfer_to", UNSET))


        def _parse_transfer_destinations(data: object) -> list[UpdateAgentBodyTransferDestinationsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                transfer_destinations_type_0 = []
                _transfer_destinations_type_0 = data
                for transfer_destinations_type_0_item_data in (_transfer_destinations_type_0):
                    transfer_destinations_type_0_item = UpdateAgentBodyTransferDestinationsType0Item.from_dict(transfer_destinations_type_0_item_data)



                    transfer_destinations_type_0.append(transfer_destinations_type_0_item)

                return transfer_destinations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UpdateAgentBodyTransferDestinationsType0Item] | None | Unset, data)

        transfer_destinations = _parse_transfer_destinations(d.pop("transfer_destinations", UNSET))


        _transfer_mode = d.pop("transfer_mode", UNSET)
        transfer_mode: UpdateAgentBodyTransferMode | Unset
        if isinstance(_transfer_mode,  Unset):
            transfer_mode = UNSET
        else:
            transfer_mode = UpdateAgentBodyTransferMode(_transfer_mode)




        tool_ids = cast(list[str], d.pop("tool_ids", UNSET))


        connector_installation_ids = cast(list[str], d.pop("connector_installation_ids", UNSET))


        enabled_tools = cast(list[str], d.pop("enabled_tools", UNSET))


        opt_out_tool = d.pop("opt_out_tool", UNSET)

        def _parse_calling_window(data: object) -> None | Unset | UpdateAgentBodyCallingWindowType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calling_window_type_0 = UpdateAgentBodyCallingWindowType0.from_dict(data)



                return calling_window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyCallingWindowType0, data)

        calling_window = _parse_calling_window(d.pop("calling_window", UNSET))


        def _parse_voicemail(data: object) -> None | Unset | UpdateAgentBodyVoicemailType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voicemail_type_0 = UpdateAgentBodyVoicemailType0.from_dict(data)



                return voicemail_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyVoicemailType0, data)

        voicemail = _parse_voicemail(d.pop("voicemail", UNSET))


        def _parse_voice(data: object) -> None | Unset | UpdateAgentBodyVoiceType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                voice_type_0 = UpdateAgentBodyVoiceType0.from_dict(data)



                return voice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyVoiceType0, data)

        voice = _parse_voice(d.pop("voice", UNSET))


        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("language", UNSET))


        def _parse_transcription(data: object) -> None | Unset | UpdateAgentBodyTranscriptionType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                transcription_type_0 = UpdateAgentBodyTranscriptionType0.from_dict(data)



                return transcription_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyTranscriptionType0, data)

        transcription = _parse_transcription(d.pop("transcription", UNSET))


        def _parse_interruptible(data: object) -> None | Unset | UpdateAgentBodyInterruptibleType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interruptible_type_0 = UpdateAgentBodyInterruptibleType0(data)



                return interruptible_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyInterruptibleType0, data)

        interruptible = _parse_interruptible(d.pop("interruptible", UNSET))


        def _parse_dtmf(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        dtmf = _parse_dtmf(d.pop("dtmf", UNSET))


        def _parse_turn_taking(data: object) -> None | Unset | UpdateAgentBodyTurnTakingType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                turn_taking_type_0 = UpdateAgentBodyTurnTakingType0.from_dict(data)



                return turn_taking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyTurnTakingType0, data)

        turn_taking = _parse_turn_taking(d.pop("turn_taking", UNSET))


        _engine = d.pop("engine", UNSET)
        engine: UpdateAgentBodyEngine | Unset
        if isinstance(_engine,  Unset):
            engine = UNSET
        else:
            engine = UpdateAgentBodyEngine(_engine)




        def _parse_analysis(data: object) -> None | Unset | UpdateAgentBodyAnalysisType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                analysis_type_0 = UpdateAgentBodyAnalysisType0.from_dict(data)



                return analysis_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyAnalysisType0, data)

        analysis = _parse_analysis(d.pop("analysis", UNSET))


        _metadata = d.pop("metadata", UNSET)
        metadata: UpdateAgentBodyMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = UpdateAgentBodyMetadata.from_dict(_metadata)




        def _parse_recording(data: object) -> None | Unset | UpdateAgentBodyRecordingType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                recording_type_0 = UpdateAgentBodyRecordingType0.from_dict(data)



                return recording_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyRecordingType0, data)

        recording = _parse_recording(d.pop("recording", UNSET))


        def _parse_recording_consent(data: object) -> None | Unset | UpdateAgentBodyRecordingConsentType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recording_consent_type_0 = UpdateAgentBodyRecordingConsentType0(data)



                return recording_consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateAgentBodyRecordingConsentType0, data)

        recording_consent = _parse_recording_consent(d.pop("recording_consent", UNSET))


        default = d.pop("default", UNSET)

        publish = d.pop("publish", UNSET)

        def _parse_traffic_split(data: object) -> list[UpdateAgentBodyTrafficSplitType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                traffic_split_type_0 = []
                _traffic_split_type_0 = data
                for traffic_split_type_0_item_data in (_traffic_split_type_0):
                    traffic_split_type_0_item = UpdateAgentBodyTrafficSplitType0Item.from_dict(traffic_split_type_0_item_data)



                    traffic_split_type_0.append(traffic_split_type_0_item)

                return traffic_split_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UpdateAgentBodyTrafficSplitType0Item] | None | Unset, data)

        traffic_split = _parse_traffic_split(d.pop("traffic_split", UNSET))


        update_agent_body = cls(
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
            publish=publish,
            traffic_split=traffic_split,
        )

        return update_agent_body

