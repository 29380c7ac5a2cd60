/**
 * Worker Deployment versioning contracts (https://docs.temporal.io/worker-versioning), bundle-safe: the
 * default deployment name, and the `patched()` ids of workflow changes, each naming the deployment
 * version that introduced it (the first one whose workers run the new code). A gate stays until no open
 * run of its workflow can have started before that version (README, "Rolling deploys").
 *
 * What each workflow kind does across a deploy (its `versioningBehavior`, set next to the workflow):
 * - PINNED, finishing on the version it started on: `callWorkflow` (bounded by its max duration),
 *   `conversationWorkflow` (moves to the new version by continuing as new between messages once Temporal
 *   says the deployment's current version changed), `testSuiteRunWorkflow` (minutes).
 * - AUTO_UPGRADE, moving to the current version at their next workflow task, so every change to their
 *   command sequence is gated with `patched(<id below>)` or waits for a continue-as-new: the campaign
 *   (`bulkCallWorkflow`, continues as new per page), `callSlotsWorkflow` (never ends), webhook deliveries
 *   (up to 3 days of retries), and the short or periodic ones (recordings, analysis, privacy, audit,
 *   reconciler, phone number provisioning, knowledge crawls).
 */

/** The deployment name when `SVC_DEPLOYMENT_NAME` is unset (no `.` or `:`: Temporal joins name and build id with them). */
export const DEFAULT_DEPLOYMENT_NAME = 'svc-assistant';

/** `patched()` ids, each `<deployment name>@<package version>:<change>`: the version that brought the change. */
export const PATCHES = {
  /**
   * `callWorkflow` records, in the run's memo, the deployment version that finished the call
   * (`deployment_version`, `name:build-id`, null when workers are unversioned). Calls started before
   * 0.2.0 (their histories have no marker) finish without it.
   */
  callFinishedOnMemo: 'svc-assistant@0.2.0:call-finished-on-memo',
  /**
   * `callWorkflow`, a squad's hand-off on a live call to a member of another voice (src/workflows/call-squad.ts):
   * the voice is switched before the `handoff` entry is recorded, and an `announced` member's announcement,
   * once the ConversationRelay session said it, is written as an assistant turn of the member handing off.
   * Runs started before 0.3.0 switch after the entry and write no announcement.
   */
  squadAnnouncementTurn: 'svc-assistant@0.3.0:squad-announcement-turn',
  /**
   * A realtime call's sideband runs the function calls of the organization's tools itself (no workflow
   * task between the model's call and its output, src/voice/realtime-session.ts): the workflow gives the
   * sideband activity the tools it may run and, for an answer the sideband ran, waits for its result
   * signal instead of running the `runTool` local activity (which it still runs, with the same key, when
   * the sideband died between its two signals). Runs started before 0.3.0 keep the workflow's path.
   */
  realtimeSidebandTools: 'svc-assistant@0.3.0:realtime-sideband-tools',
  /**
   * A mocked tool call (a `fork` replay's call, src/workflows/tool-mocks.ts) whose arguments no recorded
   * call had is answered by the tool's `mock` rule or default when one applies (no `generateToolMock`
   * activity). Calls whose history has no marker (run by a worker without it) keep asking the model.
   */
  toolMockRules: 'svc-assistant@0.3.0:tool-mock-rules',
  /**
   * `conversationWorkflow`: an outbound message naming `agent_id` while a squad answers the conversation
   * ends the squad's run (its member and hand-offs cleared, the agent answers alone from the next turn),
   * even when the agent is the answering member's. Runs whose history has no marker keep the squad.
   */
  messageAgentEndsSquad: 'svc-assistant@0.3.0:message-agent-ends-squad',
} as const;
