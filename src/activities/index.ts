/**
 * Every activity the worker registers. Workflows import this module as types only
 * (`import type * as activities`), so nothing here reaches the workflow bundle.
 */
export { ensureCallRecord, transitionCall, recordTurns, interruptTurns, reconcileCalls } from './calls';
export { generateReply } from './llm';
export { searchKnowledge } from './knowledge';
export {
  beginKnowledgeCrawl,
  crawlKnowledgePage,
  recordKnowledgeCrawlProgress,
  commitKnowledgeCrawl,
} from './knowledge-crawl';
export { resolveTools, runTool } from './tools';
export {
  placeCall,
  checkDialGate,
  transferCall,
  holdForTransfer,
  dialTransferLeg,
  returnFromTransfer,
  leaveVoicemail,
  hangUpCall,
  closeRoom,
  sendDigits,
  speakLine,
  switchVoice,
  recordConsentAnswer,
} from './telephony';
export { startPayment, resumeRecording } from './payments';
export { checkTransferDestination } from './dialing';
export { deliverWebhook, failWebhookDelivery } from './webhooks';
export {
  storeInbound,
  applyMessageStatus,
  setConversationStatus,
  setConversationAgent,
  conversationContext,
  loadConversation,
  appendConversationLog,
  recordToolCalls,
  recordConversationHandoff,
} from './conversations';
export { sendMessage } from './messaging';
export {
  ensureBulkCallRecord,
  loadBulkCallPage,
  bulkCallWindows,
  prepareBulkCalls,
  recordBulkCallProgress,
  checkBulkCalls,
} from './bulk-calls';
export { attendRoom } from './voice-room';
export { requestCallSlot, releaseCallSlot, endedCalls, tellGranted } from './call-slots';
export { scheduleCallback } from './callbacks';
export { recordOptOut } from './opt-outs';
export { storeRecording, deleteProviderRecording, emitRecordingReady, expireRecordings } from './recordings';
export { requestAnalysis, storeAnalysis } from './analysis';
export { personaTurn } from './simulator';
export { startScenario, judgeScenario, recordScenarioResult, finishTestSuiteRun } from './test-suites';
export {
  beginReplayCall,
  replayCallTurns,
  recordReplayCall,
  finishReplay,
  startForkedCall,
  compareForkedCall,
} from './replays';
export { generateToolMock } from './tool-mocks';
export { listRetentionTenants, retentionBatch, resolveErasurePerson, erasureStep, recordErasure } from './privacy';
export { expireAuditEventsBatch } from './audit';
export { provisionNumber } from './phone-numbers';
export {
  ringRealtimeSimulation,
  acceptRealtimeCall,
  realtimeMemberSession,
  attendRealtimeCall,
  hangUpRealtimeCall,
  referRealtimeCall,
  redirectToPipeline,
} from './realtime';
