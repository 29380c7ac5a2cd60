/** Every workflow the worker runs (the worker's `workflowsPath`); one file per workflow. */
export { callWorkflow } from './calls';
export { callReconcilerWorkflow } from './calls-reconciler';
export { webhookDeliveryWorkflow } from './webhooks';
export { conversationWorkflow } from './conversations';
export { bulkCallWorkflow } from './bulk-calls';
export { callSlotsWorkflow } from './call-slots';
export { recordingWorkflow, recordingRetentionWorkflow } from './recordings';
export { callAnalysisWorkflow } from './analysis';
export { testSuiteRunWorkflow } from './test-suites';
export { retentionSweepWorkflow, erasureWorkflow } from './privacy';
export { auditRetentionWorkflow } from './audit';
export { phoneNumberProvisionWorkflow } from './phone-numbers';
export { knowledgeCrawlWorkflow } from './knowledge-crawl';
export { replayWorkflow, replayCallWorkflow } from './replays';
