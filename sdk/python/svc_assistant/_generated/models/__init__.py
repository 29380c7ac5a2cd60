""" Contains all the data models used in inputs/outputs """

from .account import Account
from .account_limits import AccountLimits
from .account_mode import AccountMode
from .add_call_context_body import AddCallContextBody
from .advance_call_clock_body import AdvanceCallClockBody
from .agent import Agent
from .agent_analysis_type_0 import AgentAnalysisType0
from .agent_analysis_type_0_structured_data import AgentAnalysisType0StructuredData
from .agent_analysis_type_0_structured_data_schema import AgentAnalysisType0StructuredDataSchema
from .agent_analysis_type_0_success_evaluation import AgentAnalysisType0SuccessEvaluation
from .agent_analysis_type_0_success_evaluation_scale import AgentAnalysisType0SuccessEvaluationScale
from .agent_analysis_type_0_summary_type_1 import AgentAnalysisType0SummaryType1
from .agent_calling_window_type_0 import AgentCallingWindowType0
from .agent_interruptible_type_0 import AgentInterruptibleType0
from .agent_metadata import AgentMetadata
from .agent_recording_type_0 import AgentRecordingType0
from .agent_transcription_type_0 import AgentTranscriptionType0
from .agent_transcription_type_0_provider import AgentTranscriptionType0Provider
from .agent_transfer_mode import AgentTransferMode
from .agent_voice_type_0 import AgentVoiceType0
from .agent_voice_type_0_provider import AgentVoiceType0Provider
from .agent_voicemail_type_0 import AgentVoicemailType0
from .agent_voicemail_type_0_action import AgentVoicemailType0Action
from .agent_voicemail_type_0_leave_message_on import AgentVoicemailType0LeaveMessageOn
from .analysis import Analysis
from .analysis_error import AnalysisError
from .analysis_plan import AnalysisPlan
from .analysis_plan_structured_data import AnalysisPlanStructuredData
from .analysis_plan_structured_data_schema import AnalysisPlanStructuredDataSchema
from .analysis_plan_success_evaluation import AnalysisPlanSuccessEvaluation
from .analysis_plan_success_evaluation_scale import AnalysisPlanSuccessEvaluationScale
from .analysis_plan_summary_type_1 import AnalysisPlanSummaryType1
from .analysis_status import AnalysisStatus
from .analysis_success_type_0 import AnalysisSuccessType0
from .analysis_success_type_0_verdict import AnalysisSuccessType0Verdict
from .analyze_call_body import AnalyzeCallBody
from .analyze_call_body_analysis import AnalyzeCallBodyAnalysis
from .analyze_call_body_analysis_structured_data import AnalyzeCallBodyAnalysisStructuredData
from .analyze_call_body_analysis_structured_data_schema import AnalyzeCallBodyAnalysisStructuredDataSchema
from .analyze_call_body_analysis_success_evaluation import AnalyzeCallBodyAnalysisSuccessEvaluation
from .analyze_call_body_analysis_success_evaluation_scale import AnalyzeCallBodyAnalysisSuccessEvaluationScale
from .analyze_call_body_analysis_summary_type_1 import AnalyzeCallBodyAnalysisSummaryType1
from .analyze_conversation_body import AnalyzeConversationBody
from .analyze_conversation_body_analysis import AnalyzeConversationBodyAnalysis
from .analyze_conversation_body_analysis_structured_data import AnalyzeConversationBodyAnalysisStructuredData
from .analyze_conversation_body_analysis_structured_data_schema import AnalyzeConversationBodyAnalysisStructuredDataSchema
from .analyze_conversation_body_analysis_success_evaluation import AnalyzeConversationBodyAnalysisSuccessEvaluation
from .analyze_conversation_body_analysis_success_evaluation_scale import AnalyzeConversationBodyAnalysisSuccessEvaluationScale
from .analyze_conversation_body_analysis_summary_type_1 import AnalyzeConversationBodyAnalysisSummaryType1
from .bulk_call import BulkCall
from .bulk_call_counts import BulkCallCounts
from .bulk_call_metadata import BulkCallMetadata
from .bulk_call_result import BulkCallResult
from .bulk_call_result_form_type_0 import BulkCallResultFormType0
from .bulk_call_result_status import BulkCallResultStatus
from .bulk_call_retry import BulkCallRetry
from .bulk_call_retry_on_item import BulkCallRetryOnItem
from .bulk_call_status import BulkCallStatus
from .call import Call
from .call_answered_by_type_0 import CallAnsweredByType0
from .call_calling_window_type_0 import CallCallingWindowType0
from .call_context import CallContext
from .call_direction import CallDirection
from .call_error_type_0 import CallErrorType0
from .call_form_type_0 import CallFormType0
from .call_inbound_webhook_type_0 import CallInboundWebhookType0
from .call_inbound_webhook_type_0_status import CallInboundWebhookType0Status
from .call_metadata import CallMetadata
from .call_note import CallNote
from .call_recording_type_0 import CallRecordingType0
from .call_say import CallSay
from .call_status import CallStatus
from .call_transfer_type_0 import CallTransferType0
from .call_transfer_type_0_mode import CallTransferType0Mode
from .call_transfer_type_0_reason_type_0 import CallTransferType0ReasonType0
from .call_transfer_type_0_status import CallTransferType0Status
from .cancel_bulk_call_body import CancelBulkCallBody
from .connector import Connector
from .connector_installation import ConnectorInstallation
from .connector_installation_config import ConnectorInstallationConfig
from .connector_installation_metadata import ConnectorInstallationMetadata
from .connector_version import ConnectorVersion
from .connector_version_manifest import ConnectorVersionManifest
from .contact import Contact
from .conversation import Conversation
from .conversation_channel import ConversationChannel
from .conversation_status import ConversationStatus
from .create_agent_body import CreateAgentBody
from .create_agent_body_analysis import CreateAgentBodyAnalysis
from .create_agent_body_analysis_structured_data import CreateAgentBodyAnalysisStructuredData
from .create_agent_body_analysis_structured_data_schema import CreateAgentBodyAnalysisStructuredDataSchema
from .create_agent_body_analysis_success_evaluation import CreateAgentBodyAnalysisSuccessEvaluation
from .create_agent_body_analysis_success_evaluation_scale import CreateAgentBodyAnalysisSuccessEvaluationScale
from .create_agent_body_analysis_summary_type_1 import CreateAgentBodyAnalysisSummaryType1
from .create_agent_body_calling_window import CreateAgentBodyCallingWindow
from .create_agent_body_calling_window_days_item import CreateAgentBodyCallingWindowDaysItem
from .create_agent_body_interruptible import CreateAgentBodyInterruptible
from .create_agent_body_metadata import CreateAgentBodyMetadata
from .create_agent_body_recording import CreateAgentBodyRecording
from .create_agent_body_transcription import CreateAgentBodyTranscription
from .create_agent_body_transcription_provider import CreateAgentBodyTranscriptionProvider
from .create_agent_body_transfer_mode import CreateAgentBodyTransferMode
from .create_agent_body_voice import CreateAgentBodyVoice
from .create_agent_body_voice_provider import CreateAgentBodyVoiceProvider
from .create_agent_body_voicemail import CreateAgentBodyVoicemail
from .create_agent_body_voicemail_action import CreateAgentBodyVoicemailAction
from .create_agent_body_voicemail_leave_message_on import CreateAgentBodyVoicemailLeaveMessageOn
from .create_bulk_call_body import CreateBulkCallBody
from .create_bulk_call_body_contacts_item_type_1 import CreateBulkCallBodyContactsItemType1
from .create_bulk_call_body_contacts_item_type_1_context import CreateBulkCallBodyContactsItemType1Context
from .create_bulk_call_body_contacts_item_type_1_metadata import CreateBulkCallBodyContactsItemType1Metadata
from .create_bulk_call_body_contacts_item_type_1_simulation import CreateBulkCallBodyContactsItemType1Simulation
from .create_bulk_call_body_contacts_item_type_1_simulation_outcome import CreateBulkCallBodyContactsItemType1SimulationOutcome
from .create_bulk_call_body_contacts_item_type_1_simulation_transfer import CreateBulkCallBodyContactsItemType1SimulationTransfer
from .create_bulk_call_body_contacts_item_type_1_simulation_transfer_answer import CreateBulkCallBodyContactsItemType1SimulationTransferAnswer
from .create_bulk_call_body_metadata import CreateBulkCallBodyMetadata
from .create_bulk_call_body_retry import CreateBulkCallBodyRetry
from .create_bulk_call_body_retry_on_item import CreateBulkCallBodyRetryOnItem
from .create_bulk_call_body_schedule import CreateBulkCallBodySchedule
from .create_bulk_call_body_schedule_days_item import CreateBulkCallBodyScheduleDaysItem
from .create_bulk_call_body_schedule_window import CreateBulkCallBodyScheduleWindow
from .create_bulk_call_body_simulation import CreateBulkCallBodySimulation
from .create_bulk_call_body_simulation_outcome import CreateBulkCallBodySimulationOutcome
from .create_bulk_call_body_simulation_transfer import CreateBulkCallBodySimulationTransfer
from .create_bulk_call_body_simulation_transfer_answer import CreateBulkCallBodySimulationTransferAnswer
from .create_call_body import CreateCallBody
from .create_call_body_analysis_type_0 import CreateCallBodyAnalysisType0
from .create_call_body_analysis_type_0_structured_data import CreateCallBodyAnalysisType0StructuredData
from .create_call_body_analysis_type_0_structured_data_schema import CreateCallBodyAnalysisType0StructuredDataSchema
from .create_call_body_analysis_type_0_success_evaluation import CreateCallBodyAnalysisType0SuccessEvaluation
from .create_call_body_analysis_type_0_success_evaluation_scale import CreateCallBodyAnalysisType0SuccessEvaluationScale
from .create_call_body_analysis_type_0_summary_type_1 import CreateCallBodyAnalysisType0SummaryType1
from .create_call_body_calling_window import CreateCallBodyCallingWindow
from .create_call_body_calling_window_days_item import CreateCallBodyCallingWindowDaysItem
from .create_call_body_context import CreateCallBodyContext
from .create_call_body_metadata import CreateCallBodyMetadata
from .create_call_body_recording import CreateCallBodyRecording
from .create_call_body_simulation import CreateCallBodySimulation
from .create_call_body_simulation_outcome import CreateCallBodySimulationOutcome
from .create_call_body_simulation_transfer import CreateCallBodySimulationTransfer
from .create_call_body_simulation_transfer_answer import CreateCallBodySimulationTransferAnswer
from .create_call_body_voicemail import CreateCallBodyVoicemail
from .create_call_body_voicemail_action import CreateCallBodyVoicemailAction
from .create_call_body_voicemail_leave_message_on import CreateCallBodyVoicemailLeaveMessageOn
from .create_connector_installation_body import CreateConnectorInstallationBody
from .create_connector_installation_body_config import CreateConnectorInstallationBodyConfig
from .create_connector_installation_body_metadata import CreateConnectorInstallationBodyMetadata
from .create_contact_body import CreateContactBody
from .create_form_body import CreateFormBody
from .create_form_body_fields_item import CreateFormBodyFieldsItem
from .create_form_body_fields_item_type import CreateFormBodyFieldsItemType
from .create_knowledge_document_body import CreateKnowledgeDocumentBody
from .create_message_template_body import CreateMessageTemplateBody
from .create_phone_number_body import CreatePhoneNumberBody
from .create_phone_number_body_channels_item import CreatePhoneNumberBodyChannelsItem
from .create_publisher_key_body import CreatePublisherKeyBody
from .create_tool_body_type_0 import CreateToolBodyType0
from .create_tool_body_type_0_headers import CreateToolBodyType0Headers
from .create_tool_body_type_0_metadata import CreateToolBodyType0Metadata
from .create_tool_body_type_0_method import CreateToolBodyType0Method
from .create_tool_body_type_0_parameters import CreateToolBodyType0Parameters
from .create_tool_body_type_1 import CreateToolBodyType1
from .create_tool_body_type_1_headers import CreateToolBodyType1Headers
from .create_tool_body_type_1_metadata import CreateToolBodyType1Metadata
from .create_webhook_endpoint_body import CreateWebhookEndpointBody
from .create_webhook_endpoint_body_metadata import CreateWebhookEndpointBodyMetadata
from .create_widget_session_body import CreateWidgetSessionBody
from .create_widget_session_body_identity import CreateWidgetSessionBodyIdentity
from .deleted import Deleted
from .end_call_body import EndCallBody
from .error import Error
from .error_error import ErrorError
from .error_error_type import ErrorErrorType
from .event import Event
from .event_data import EventData
from .event_type import EventType
from .form import Form
from .form_fields_item import FormFieldsItem
from .form_fields_item_type import FormFieldsItemType
from .health_response_200 import HealthResponse200
from .knowledge_chunk import KnowledgeChunk
from .knowledge_document import KnowledgeDocument
from .list_agents_response_200 import ListAgentsResponse200
from .list_bulk_call_results_response_200 import ListBulkCallResultsResponse200
from .list_bulk_call_results_status import ListBulkCallResultsStatus
from .list_bulk_calls_response_200 import ListBulkCallsResponse200
from .list_bulk_calls_status import ListBulkCallsStatus
from .list_call_analyses_response_200 import ListCallAnalysesResponse200
from .list_calls_direction import ListCallsDirection
from .list_calls_response_200 import ListCallsResponse200
from .list_calls_status import ListCallsStatus
from .list_connector_installations_response_200 import ListConnectorInstallationsResponse200
from .list_connector_versions_response_200 import ListConnectorVersionsResponse200
from .list_connectors_response_200 import ListConnectorsResponse200
from .list_contact_records_response_200 import ListContactRecordsResponse200
from .list_contacts_response_200 import ListContactsResponse200
from .list_conversation_analyses_response_200 import ListConversationAnalysesResponse200
from .list_conversation_messages_response_200 import ListConversationMessagesResponse200
from .list_conversations_channel import ListConversationsChannel
from .list_conversations_response_200 import ListConversationsResponse200
from .list_conversations_status import ListConversationsStatus
from .list_events_response_200 import ListEventsResponse200
from .list_forms_response_200 import ListFormsResponse200
from .list_knowledge_documents_response_200 import ListKnowledgeDocumentsResponse200
from .list_message_templates_response_200 import ListMessageTemplatesResponse200
from .list_phone_numbers_response_200 import ListPhoneNumbersResponse200
from .list_publisher_keys_response_200 import ListPublisherKeysResponse200
from .list_tools_response_200 import ListToolsResponse200
from .list_webhook_delivery_attempts_response_200 import ListWebhookDeliveryAttemptsResponse200
from .list_webhook_endpoints_response_200 import ListWebhookEndpointsResponse200
from .message import Message
from .message_author import MessageAuthor
from .message_channel import MessageChannel
from .message_direction import MessageDirection
from .message_error_type_0 import MessageErrorType0
from .message_template import MessageTemplate
from .message_template_type_0 import MessageTemplateType0
from .message_tool_calls_item import MessageToolCallsItem
from .pause_bulk_call_body import PauseBulkCallBody
from .phone_number import PhoneNumber
from .phone_number_channels_item import PhoneNumberChannelsItem
from .publish_connector_version_body import PublishConnectorVersionBody
from .publisher_key import PublisherKey
from .publisher_key_status import PublisherKeyStatus
from .readiness_response_200 import ReadinessResponse200
from .readiness_response_200_mongodb import ReadinessResponse200Mongodb
from .readiness_response_200_status import ReadinessResponse200Status
from .readiness_response_200_temporal import ReadinessResponse200Temporal
from .readiness_response_503 import ReadinessResponse503
from .readiness_response_503_mongodb import ReadinessResponse503Mongodb
from .readiness_response_503_status import ReadinessResponse503Status
from .readiness_response_503_temporal import ReadinessResponse503Temporal
from .record import Record
from .record_data import RecordData
from .recording import Recording
from .recording_content_type import RecordingContentType
from .redeliver_event_body import RedeliverEventBody
from .redeliver_event_response_200 import RedeliverEventResponse200
from .resume_bulk_call_body import ResumeBulkCallBody
from .resume_conversation_body import ResumeConversationBody
from .retrieve_open_api_document_response_200 import RetrieveOpenApiDocumentResponse200
from .rotate_webhook_endpoint_secret_body import RotateWebhookEndpointSecretBody
from .say_on_call_body import SayOnCallBody
from .search_knowledge_response_200 import SearchKnowledgeResponse200
from .send_message_body import SendMessageBody
from .send_message_body_channel import SendMessageBodyChannel
from .send_message_body_template import SendMessageBodyTemplate
from .send_widget_message_body import SendWidgetMessageBody
from .simulate_inbound_call_body import SimulateInboundCallBody
from .simulate_inbound_call_body_simulation import SimulateInboundCallBodySimulation
from .simulate_inbound_message_body import SimulateInboundMessageBody
from .simulate_inbound_message_body_channel import SimulateInboundMessageBodyChannel
from .start_widget_voice_body import StartWidgetVoiceBody
from .stream_call_response_200 import StreamCallResponse200
from .stream_widget_events_response_200 import StreamWidgetEventsResponse200
from .tool_type_0_metadata import ToolType0Metadata
from .tool_type_0_method import ToolType0Method
from .tool_type_0_parameters import ToolType0Parameters
from .tool_type_1_metadata import ToolType1Metadata
from .transcript import Transcript
from .transcript_turn import TranscriptTurn
from .transcript_turn_knowledge_item import TranscriptTurnKnowledgeItem
from .transcript_turn_tool import TranscriptTurnTool
from .transfer_call_body import TransferCallBody
from .transfer_call_body_mode import TransferCallBodyMode
from .twilio_call_status_body import TwilioCallStatusBody
from .twilio_inbound_call_body import TwilioInboundCallBody
from .twilio_inbound_message_body import TwilioInboundMessageBody
from .twilio_inbound_status_body import TwilioInboundStatusBody
from .twilio_machine_detection_body import TwilioMachineDetectionBody
from .twilio_message_status_body import TwilioMessageStatusBody
from .twilio_message_status_of_body import TwilioMessageStatusOfBody
from .twilio_recording_status_body import TwilioRecordingStatusBody
from .twilio_relay_ended_body import TwilioRelayEndedBody
from .twilio_transfer_conference_body import TwilioTransferConferenceBody
from .twilio_transfer_leg_status_body import TwilioTransferLegStatusBody
from .twilio_voice_body import TwilioVoiceBody
from .update_agent_body import UpdateAgentBody
from .update_agent_body_analysis_type_0 import UpdateAgentBodyAnalysisType0
from .update_agent_body_analysis_type_0_structured_data import UpdateAgentBodyAnalysisType0StructuredData
from .update_agent_body_analysis_type_0_structured_data_schema import UpdateAgentBodyAnalysisType0StructuredDataSchema
from .update_agent_body_analysis_type_0_success_evaluation import UpdateAgentBodyAnalysisType0SuccessEvaluation
from .update_agent_body_analysis_type_0_success_evaluation_scale import UpdateAgentBodyAnalysisType0SuccessEvaluationScale
from .update_agent_body_analysis_type_0_summary_type_1 import UpdateAgentBodyAnalysisType0SummaryType1
from .update_agent_body_calling_window_type_0 import UpdateAgentBodyCallingWindowType0
from .update_agent_body_calling_window_type_0_days_item import UpdateAgentBodyCallingWindowType0DaysItem
from .update_agent_body_interruptible_type_0 import UpdateAgentBodyInterruptibleType0
from .update_agent_body_metadata import UpdateAgentBodyMetadata
from .update_agent_body_recording_type_0 import UpdateAgentBodyRecordingType0
from .update_agent_body_transcription_type_0 import UpdateAgentBodyTranscriptionType0
from .update_agent_body_transcription_type_0_provider import UpdateAgentBodyTranscriptionType0Provider
from .update_agent_body_transfer_mode import UpdateAgentBodyTransferMode
from .update_agent_body_voice_type_0 import UpdateAgentBodyVoiceType0
from .update_agent_body_voice_type_0_provider import UpdateAgentBodyVoiceType0Provider
from .update_agent_body_voicemail_type_0 import UpdateAgentBodyVoicemailType0
from .update_agent_body_voicemail_type_0_action import UpdateAgentBodyVoicemailType0Action
from .update_agent_body_voicemail_type_0_leave_message_on import UpdateAgentBodyVoicemailType0LeaveMessageOn
from .update_connector_installation_body import UpdateConnectorInstallationBody
from .update_connector_installation_body_config import UpdateConnectorInstallationBodyConfig
from .update_connector_installation_body_metadata import UpdateConnectorInstallationBodyMetadata
from .update_knowledge_document_body import UpdateKnowledgeDocumentBody
from .update_phone_number_body import UpdatePhoneNumberBody
from .update_phone_number_body_channels_item import UpdatePhoneNumberBodyChannelsItem
from .update_tool_body_type_0 import UpdateToolBodyType0
from .update_tool_body_type_0_headers_type_0 import UpdateToolBodyType0HeadersType0
from .update_tool_body_type_0_metadata import UpdateToolBodyType0Metadata
from .update_tool_body_type_0_method import UpdateToolBodyType0Method
from .update_tool_body_type_0_parameters import UpdateToolBodyType0Parameters
from .update_tool_body_type_1 import UpdateToolBodyType1
from .update_tool_body_type_1_headers_type_0 import UpdateToolBodyType1HeadersType0
from .update_tool_body_type_1_metadata import UpdateToolBodyType1Metadata
from .update_webhook_endpoint_body import UpdateWebhookEndpointBody
from .update_webhook_endpoint_body_metadata import UpdateWebhookEndpointBodyMetadata
from .upsert_records_body import UpsertRecordsBody
from .upsert_records_body_contact import UpsertRecordsBodyContact
from .upsert_records_body_records_item import UpsertRecordsBodyRecordsItem
from .upsert_records_body_records_item_data import UpsertRecordsBodyRecordsItemData
from .upsert_records_response_200 import UpsertRecordsResponse200
from .usage import Usage
from .usage_daily_item import UsageDailyItem
from .usage_daily_item_analysis import UsageDailyItemAnalysis
from .usage_daily_item_calls import UsageDailyItemCalls
from .usage_daily_item_calls_by_status import UsageDailyItemCallsByStatus
from .usage_daily_item_knowledge import UsageDailyItemKnowledge
from .usage_daily_item_llm import UsageDailyItemLlm
from .usage_daily_item_messages import UsageDailyItemMessages
from .usage_daily_item_messages_inbound import UsageDailyItemMessagesInbound
from .usage_daily_item_messages_outbound import UsageDailyItemMessagesOutbound
from .usage_daily_item_webhooks import UsageDailyItemWebhooks
from .usage_totals import UsageTotals
from .usage_totals_analysis import UsageTotalsAnalysis
from .usage_totals_calls import UsageTotalsCalls
from .usage_totals_calls_by_status import UsageTotalsCallsByStatus
from .usage_totals_knowledge import UsageTotalsKnowledge
from .usage_totals_llm import UsageTotalsLlm
from .usage_totals_messages import UsageTotalsMessages
from .usage_totals_messages_inbound import UsageTotalsMessagesInbound
from .usage_totals_messages_outbound import UsageTotalsMessagesOutbound
from .usage_totals_webhooks import UsageTotalsWebhooks
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_attempt import WebhookDeliveryAttempt
from .webhook_delivery_last_attempt_type_0 import WebhookDeliveryLastAttemptType0
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_delivery_trigger import WebhookDeliveryTrigger
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_metadata import WebhookEndpointMetadata
from .webhook_endpoint_status import WebhookEndpointStatus
from .widget_session import WidgetSession
from .widget_voice import WidgetVoice

__all__ = (
    "Account",
    "AccountLimits",
    "AccountMode",
    "AddCallContextBody",
    "AdvanceCallClockBody",
    "Agent",
    "AgentAnalysisType0",
    "AgentAnalysisType0StructuredData",
    "AgentAnalysisType0StructuredDataSchema",
    "AgentAnalysisType0SuccessEvaluation",
    "AgentAnalysisType0SuccessEvaluationScale",
    "AgentAnalysisType0SummaryType1",
    "AgentCallingWindowType0",
    "AgentInterruptibleType0",
    "AgentMetadata",
    "AgentRecordingType0",
    "AgentTranscriptionType0",
    "AgentTranscriptionType0Provider",
    "AgentTransferMode",
    "AgentVoicemailType0",
    "AgentVoicemailType0Action",
    "AgentVoicemailType0LeaveMessageOn",
    "AgentVoiceType0",
    "AgentVoiceType0Provider",
    "Analysis",
    "AnalysisError",
    "AnalysisPlan",
    "AnalysisPlanStructuredData",
    "AnalysisPlanStructuredDataSchema",
    "AnalysisPlanSuccessEvaluation",
    "AnalysisPlanSuccessEvaluationScale",
    "AnalysisPlanSummaryType1",
    "AnalysisStatus",
    "AnalysisSuccessType0",
    "AnalysisSuccessType0Verdict",
    "AnalyzeCallBody",
    "AnalyzeCallBodyAnalysis",
    "AnalyzeCallBodyAnalysisStructuredData",
    "AnalyzeCallBodyAnalysisStructuredDataSchema",
    "AnalyzeCallBodyAnalysisSuccessEvaluation",
    "AnalyzeCallBodyAnalysisSuccessEvaluationScale",
    "AnalyzeCallBodyAnalysisSummaryType1",
    "AnalyzeConversationBody",
    "AnalyzeConversationBodyAnalysis",
    "AnalyzeConversationBodyAnalysisStructuredData",
    "AnalyzeConversationBodyAnalysisStructuredDataSchema",
    "AnalyzeConversationBodyAnalysisSuccessEvaluation",
    "AnalyzeConversationBodyAnalysisSuccessEvaluationScale",
    "AnalyzeConversationBodyAnalysisSummaryType1",
    "BulkCall",
    "BulkCallCounts",
    "BulkCallMetadata",
    "BulkCallResult",
    "BulkCallResultFormType0",
    "BulkCallResultStatus",
    "BulkCallRetry",
    "BulkCallRetryOnItem",
    "BulkCallStatus",
    "Call",
    "CallAnsweredByType0",
    "CallCallingWindowType0",
    "CallContext",
    "CallDirection",
    "CallErrorType0",
    "CallFormType0",
    "CallInboundWebhookType0",
    "CallInboundWebhookType0Status",
    "CallMetadata",
    "CallNote",
    "CallRecordingType0",
    "CallSay",
    "CallStatus",
    "CallTransferType0",
    "CallTransferType0Mode",
    "CallTransferType0ReasonType0",
    "CallTransferType0Status",
    "CancelBulkCallBody",
    "Connector",
    "ConnectorInstallation",
    "ConnectorInstallationConfig",
    "ConnectorInstallationMetadata",
    "ConnectorVersion",
    "ConnectorVersionManifest",
    "Contact",
    "Conversation",
    "ConversationChannel",
    "ConversationStatus",
    "CreateAgentBody",
    "CreateAgentBodyAnalysis",
    "CreateAgentBodyAnalysisStructuredData",
    "CreateAgentBodyAnalysisStructuredDataSchema",
    "CreateAgentBodyAnalysisSuccessEvaluation",
    "CreateAgentBodyAnalysisSuccessEvaluationScale",
    "CreateAgentBodyAnalysisSummaryType1",
    "CreateAgentBodyCallingWindow",
    "CreateAgentBodyCallingWindowDaysItem",
    "CreateAgentBodyInterruptible",
    "CreateAgentBodyMetadata",
    "CreateAgentBodyRecording",
    "CreateAgentBodyTranscription",
    "CreateAgentBodyTranscriptionProvider",
    "CreateAgentBodyTransferMode",
    "CreateAgentBodyVoice",
    "CreateAgentBodyVoicemail",
    "CreateAgentBodyVoicemailAction",
    "CreateAgentBodyVoicemailLeaveMessageOn",
    "CreateAgentBodyVoiceProvider",
    "CreateBulkCallBody",
    "CreateBulkCallBodyContactsItemType1",
    "CreateBulkCallBodyContactsItemType1Context",
    "CreateBulkCallBodyContactsItemType1Metadata",
    "CreateBulkCallBodyContactsItemType1Simulation",
    "CreateBulkCallBodyContactsItemType1SimulationOutcome",
    "CreateBulkCallBodyContactsItemType1SimulationTransfer",
    "CreateBulkCallBodyContactsItemType1SimulationTransferAnswer",
    "CreateBulkCallBodyMetadata",
    "CreateBulkCallBodyRetry",
    "CreateBulkCallBodyRetryOnItem",
    "CreateBulkCallBodySchedule",
    "CreateBulkCallBodyScheduleDaysItem",
    "CreateBulkCallBodyScheduleWindow",
    "CreateBulkCallBodySimulation",
    "CreateBulkCallBodySimulationOutcome",
    "CreateBulkCallBodySimulationTransfer",
    "CreateBulkCallBodySimulationTransferAnswer",
    "CreateCallBody",
    "CreateCallBodyAnalysisType0",
    "CreateCallBodyAnalysisType0StructuredData",
    "CreateCallBodyAnalysisType0StructuredDataSchema",
    "CreateCallBodyAnalysisType0SuccessEvaluation",
    "CreateCallBodyAnalysisType0SuccessEvaluationScale",
    "CreateCallBodyAnalysisType0SummaryType1",
    "CreateCallBodyCallingWindow",
    "CreateCallBodyCallingWindowDaysItem",
    "CreateCallBodyContext",
    "CreateCallBodyMetadata",
    "CreateCallBodyRecording",
    "CreateCallBodySimulation",
    "CreateCallBodySimulationOutcome",
    "CreateCallBodySimulationTransfer",
    "CreateCallBodySimulationTransferAnswer",
    "CreateCallBodyVoicemail",
    "CreateCallBodyVoicemailAction",
    "CreateCallBodyVoicemailLeaveMessageOn",
    "CreateConnectorInstallationBody",
    "CreateConnectorInstallationBodyConfig",
    "CreateConnectorInstallationBodyMetadata",
    "CreateContactBody",
    "CreateFormBody",
    "CreateFormBodyFieldsItem",
    "CreateFormBodyFieldsItemType",
    "CreateKnowledgeDocumentBody",
    "CreateMessageTemplateBody",
    "CreatePhoneNumberBody",
    "CreatePhoneNumberBodyChannelsItem",
    "CreatePublisherKeyBody",
    "CreateToolBodyType0",
    "CreateToolBodyType0Headers",
    "CreateToolBodyType0Metadata",
    "CreateToolBodyType0Method",
    "CreateToolBodyType0Parameters",
    "CreateToolBodyType1",
    "CreateToolBodyType1Headers",
    "CreateToolBodyType1Metadata",
    "CreateWebhookEndpointBody",
    "CreateWebhookEndpointBodyMetadata",
    "CreateWidgetSessionBody",
    "CreateWidgetSessionBodyIdentity",
    "Deleted",
    "EndCallBody",
    "Error",
    "ErrorError",
    "ErrorErrorType",
    "Event",
    "EventData",
    "EventType",
    "Form",
    "FormFieldsItem",
    "FormFieldsItemType",
    "HealthResponse200",
    "KnowledgeChunk",
    "KnowledgeDocument",
    "ListAgentsResponse200",
    "ListBulkCallResultsResponse200",
    "ListBulkCallResultsStatus",
    "ListBulkCallsResponse200",
    "ListBulkCallsStatus",
    "ListCallAnalysesResponse200",
    "ListCallsDirection",
    "ListCallsResponse200",
    "ListCallsStatus",
    "ListConnectorInstallationsResponse200",
    "ListConnectorsResponse200",
    "ListConnectorVersionsResponse200",
    "ListContactRecordsResponse200",
    "ListContactsResponse200",
    "ListConversationAnalysesResponse200",
    "ListConversationMessagesResponse200",
    "ListConversationsChannel",
    "ListConversationsResponse200",
    "ListConversationsStatus",
    "ListEventsResponse200",
    "ListFormsResponse200",
    "ListKnowledgeDocumentsResponse200",
    "ListMessageTemplatesResponse200",
    "ListPhoneNumbersResponse200",
    "ListPublisherKeysResponse200",
    "ListToolsResponse200",
    "ListWebhookDeliveryAttemptsResponse200",
    "ListWebhookEndpointsResponse200",
    "Message",
    "MessageAuthor",
    "MessageChannel",
    "MessageDirection",
    "MessageErrorType0",
    "MessageTemplate",
    "MessageTemplateType0",
    "MessageToolCallsItem",
    "PauseBulkCallBody",
    "PhoneNumber",
    "PhoneNumberChannelsItem",
    "PublishConnectorVersionBody",
    "PublisherKey",
    "PublisherKeyStatus",
    "ReadinessResponse200",
    "ReadinessResponse200Mongodb",
    "ReadinessResponse200Status",
    "ReadinessResponse200Temporal",
    "ReadinessResponse503",
    "ReadinessResponse503Mongodb",
    "ReadinessResponse503Status",
    "ReadinessResponse503Temporal",
    "Record",
    "RecordData",
    "Recording",
    "RecordingContentType",
    "RedeliverEventBody",
    "RedeliverEventResponse200",
    "ResumeBulkCallBody",
    "ResumeConversationBody",
    "RetrieveOpenApiDocumentResponse200",
    "RotateWebhookEndpointSecretBody",
    "SayOnCallBody",
    "SearchKnowledgeResponse200",
    "SendMessageBody",
    "SendMessageBodyChannel",
    "SendMessageBodyTemplate",
    "SendWidgetMessageBody",
    "SimulateInboundCallBody",
    "SimulateInboundCallBodySimulation",
    "SimulateInboundMessageBody",
    "SimulateInboundMessageBodyChannel",
    "StartWidgetVoiceBody",
    "StreamCallResponse200",
    "StreamWidgetEventsResponse200",
    "ToolType0Metadata",
    "ToolType0Method",
    "ToolType0Parameters",
    "ToolType1Metadata",
    "Transcript",
    "TranscriptTurn",
    "TranscriptTurnKnowledgeItem",
    "TranscriptTurnTool",
    "TransferCallBody",
    "TransferCallBodyMode",
    "TwilioCallStatusBody",
    "TwilioInboundCallBody",
    "TwilioInboundMessageBody",
    "TwilioInboundStatusBody",
    "TwilioMachineDetectionBody",
    "TwilioMessageStatusBody",
    "TwilioMessageStatusOfBody",
    "TwilioRecordingStatusBody",
    "TwilioRelayEndedBody",
    "TwilioTransferConferenceBody",
    "TwilioTransferLegStatusBody",
    "TwilioVoiceBody",
    "UpdateAgentBody",
    "UpdateAgentBodyAnalysisType0",
    "UpdateAgentBodyAnalysisType0StructuredData",
    "UpdateAgentBodyAnalysisType0StructuredDataSchema",
    "UpdateAgentBodyAnalysisType0SuccessEvaluation",
    "UpdateAgentBodyAnalysisType0SuccessEvaluationScale",
    "UpdateAgentBodyAnalysisType0SummaryType1",
    "UpdateAgentBodyCallingWindowType0",
    "UpdateAgentBodyCallingWindowType0DaysItem",
    "UpdateAgentBodyInterruptibleType0",
    "UpdateAgentBodyMetadata",
    "UpdateAgentBodyRecordingType0",
    "UpdateAgentBodyTranscriptionType0",
    "UpdateAgentBodyTranscriptionType0Provider",
    "UpdateAgentBodyTransferMode",
    "UpdateAgentBodyVoicemailType0",
    "UpdateAgentBodyVoicemailType0Action",
    "UpdateAgentBodyVoicemailType0LeaveMessageOn",
    "UpdateAgentBodyVoiceType0",
    "UpdateAgentBodyVoiceType0Provider",
    "UpdateConnectorInstallationBody",
    "UpdateConnectorInstallationBodyConfig",
    "UpdateConnectorInstallationBodyMetadata",
    "UpdateKnowledgeDocumentBody",
    "UpdatePhoneNumberBody",
    "UpdatePhoneNumberBodyChannelsItem",
    "UpdateToolBodyType0",
    "UpdateToolBodyType0HeadersType0",
    "UpdateToolBodyType0Metadata",
    "UpdateToolBodyType0Method",
    "UpdateToolBodyType0Parameters",
    "UpdateToolBodyType1",
    "UpdateToolBodyType1HeadersType0",
    "UpdateToolBodyType1Metadata",
    "UpdateWebhookEndpointBody",
    "UpdateWebhookEndpointBodyMetadata",
    "UpsertRecordsBody",
    "UpsertRecordsBodyContact",
    "UpsertRecordsBodyRecordsItem",
    "UpsertRecordsBodyRecordsItemData",
    "UpsertRecordsResponse200",
    "Usage",
    "UsageDailyItem",
    "UsageDailyItemAnalysis",
    "UsageDailyItemCalls",
    "UsageDailyItemCallsByStatus",
    "UsageDailyItemKnowledge",
    "UsageDailyItemLlm",
    "UsageDailyItemMessages",
    "UsageDailyItemMessagesInbound",
    "UsageDailyItemMessagesOutbound",
    "UsageDailyItemWebhooks",
    "UsageTotals",
    "UsageTotalsAnalysis",
    "UsageTotalsCalls",
    "UsageTotalsCallsByStatus",
    "UsageTotalsKnowledge",
    "UsageTotalsLlm",
    "UsageTotalsMessages",
    "UsageTotalsMessagesInbound",
    "UsageTotalsMessagesOutbound",
    "UsageTotalsWebhooks",
    "WebhookDelivery",
    "WebhookDeliveryAttempt",
    "WebhookDeliveryLastAttemptType0",
    "WebhookDeliveryStatus",
    "WebhookDeliveryTrigger",
    "WebhookEndpoint",
    "WebhookEndpointMetadata",
    "WebhookEndpointStatus",
    "WidgetSession",
    "WidgetVoice",
)
