/**
 * The replays domain's contract: a replay run (`rpl_…`) regenerates an agent version's answers on calls
 * it already had (src/services/replays.ts), one child workflow per call. The workflows' type names,
 * inputs, outputs and workflow ids, the per-turn comparison's verdict and its JSON Schema, the limits.
 * Imported by the API, the activities and the workflow bundle alike; imports nothing of the project.
 */

/**
 * The modes of a replay: `turn` regenerates each assistant turn from the recorded context up to it;
 * `fork` plays each call again as a test-mode call of the version, the recorded caller's lines said up to
 * `from_turn`, a persona caller after, the tools answered by mocks made from the recorded results.
 */
export const REPLAY_MODES = ['turn', 'fork'] as const;
export type ReplayMode = (typeof REPLAY_MODES)[number];

/** Limits: calls per replay, calls replayed at once, characters of a rubric, assistant turns per call. */
export const REPLAY_LIMITS = { calls: 500, concurrency: 5, rubricChars: 4000, turnsPerCall: 100 } as const;

/**
 * Where a replay's rubric comes from: `replay` (the request's `rubric`) or `agent` (the replayed version's
 * `replay_rubric`, used when the request gives none).
 */
export const RUBRIC_SOURCES = ['replay', 'agent'] as const;
export type RubricSource = (typeof RUBRIC_SOURCES)[number];

/** A replayed call's status: `pending` → `running` → `completed` | `errored` | `skipped` (nothing to replay). */
export const REPLAY_CALL_STATUSES = ['pending', 'running', 'completed', 'errored', 'skipped'] as const;
export type ReplayCallStatus = (typeof REPLAY_CALL_STATUSES)[number];

/** The comparer's verdict on one turn whose replayed words differ from the recorded ones. */
export interface TurnComparison {
  changed: boolean;
  /** Why, in one or two sentences. */
  explanation: string;
}

/** The JSON Schema of the comparer's answer (its `response_format`, and what the answer is validated against). */
export const TURN_COMPARISON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    changed: { type: 'boolean' },
    explanation: { type: 'string', minLength: 1 },
  },
  required: ['changed', 'explanation'],
  additionalProperties: false,
};

/** What `replayCallWorkflow` reports of one call (its per-turn rows are in the store). */
export interface ReplayCallOutcome {
  status: Exclude<ReplayCallStatus, 'pending' | 'running'>;
  /** Assistant turns replayed, and those judged changed. */
  turns: number;
  changed: number;
}

/** Argument of `replayWorkflow`: everything one replay needs, fixed when it is created. */
export interface ReplayInput {
  /** `rpl_…`, also the workflow id. */
  replayId: string;
  orgId: string;
  livemode: boolean;
  agentId: string;
  /** The agent version replayed (a draft or a published one). */
  version: number;
  mode: ReplayMode;
  /** The recorded calls replayed, in order (the selection made when the replay was created). */
  callIds: string[];
  /** Calls replayed at once (default `REPLAY_LIMITS.concurrency`). */
  concurrency?: number;
}

/** Argument of `replayCallWorkflow`: one call of a replay. */
export interface ReplayCallInput {
  replayId: string;
  callId: string;
  index: number;
  /** `fork`: the call is played again as a new test-mode call; absent: `turn`. */
  mode?: ReplayMode;
}

/** What `replayWorkflow` returns: how many calls completed, errored, were skipped, and had a change. */
export interface ReplayOutcome {
  completed: number;
  errored: number;
  skipped: number;
  changed: number;
}

/** Workflow type names (recorded histories depend on them). */
export const REPLAY_WORKFLOW = 'replayWorkflow';
export const REPLAY_CALL_WORKFLOW = 'replayCallWorkflow';

/** Signatures for starters. */
export type ReplayWorkflow = (input: ReplayInput) => Promise<ReplayOutcome>;
export type ReplayCallWorkflow = (input: ReplayCallInput) => Promise<ReplayCallOutcome>;

/** The workflow id of a replay: the replay id itself. */
export const replayWorkflowId = (replayId: string): string => replayId;

/**
 * The workflow id of one call's replay, `<replay id>-<call id>`: deterministic, so a parent retried
 * after a crash finds the child already started (or finished) and never replays a call twice.
 */
export const replayCallWorkflowId = (replayId: string, callId: string): string => `${replayId}-${callId}`;
