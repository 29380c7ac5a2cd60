/**
 * Replays (`rpl_…`, object `replay`): an agent version's answers regenerated on calls the agent already
 * had (src/services/replays.ts), with each replayed call's summary and each replayed turn.
 *
 * Who writes what (one writer per document, DESIGN.md section 3):
 * - a replay: the API inserts it (`running`, its selection of calls fixed); its own `replayWorkflow`'s
 *   `finishReplay` activity then sets `completed` and `completed_ms`, once;
 * - a replayed call (`<replay id>:<call id>`): only the activities of that call's `replayCallWorkflow`,
 *   one after the other (`running`, then its summary). A call with no row is `pending`;
 * - a replayed turn (`<replay id>:<call id>:<turn, 4 digits>`): inserted once by that call's
 *   `replayCallTurns` activity (a retried attempt finds it and does not ask the model again); deleted
 *   with the recorded call's text by erasure and retention (src/services/erasure.ts, retention.ts).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { derivedId, idTime } from '../shared/ids';
import { REPLAY_CALL_STATUSES, REPLAY_MODES, RUBRIC_SOURCES } from '../shared/replays';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

const replaySchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    agent_id: { type: String, required: true },
    agent_version: { type: Number, required: true },
    mode: { type: String, enum: REPLAY_MODES, required: true },
    /**
     * The rubric judged by (`turn`: the comparer's, what counts as a changed turn; `fork`: the test-suite
     * judge's): the request's, else the replayed version's `replay_rubric`; null: the default / no judge.
     */
    rubric: { type: String, default: null },
    /**
     * Where `rubric` came from: `replay` (the request's), `agent` (the replayed version's `replay_rubric`,
     * copied when the replay was created); null: no rubric. Absent on replays made before it existed:
     * `replay` when they have a rubric.
     */
    rubric_source: { type: String, default: null },
    /** `fork`: the first caller line the persona says (1-based); the recorded lines before it are said as they were. */
    from_turn: { type: Number, default: null },
    /** How the calls were chosen, JSON (`{call_ids}` or `{filter, sample}`), as the request gave it. */
    selection_json: { type: String, required: true },
    /** The calls replayed, in order (fixed at creation). */
    call_ids: { type: [String], default: [] },
    status: { type: String, enum: ['running', 'completed'], required: true },
    created: { type: Number, required: true },
    completed_ms: { type: Number, default: null },
  },
  base,
);
/** An agent's replays, newest first (`GET /v1/agents/{id}/replays`). */
replaySchema.index({ agent_id: 1, _id: -1 });
export const Replay = mongoose.model('Replay', replaySchema, 'replays');
export type ReplayDoc = InferSchemaType<typeof replaySchema>;

const replayCallSchema = new Schema(
  {
    /** `<replay id>:<call id>`. */
    _id: { type: String, required: true },
    replay_id: { type: String, required: true },
    call_id: { type: String, required: true },
    index: { type: Number, required: true },
    status: { type: String, enum: REPLAY_CALL_STATUSES, required: true },
    /** Once replayed: `ReplayCallSummary`, JSON. */
    summary_json: { type: String, default: null },
    error: { type: String, default: null },
    updated_ms: { type: Number, required: true },
  },
  base,
);
replayCallSchema.index({ replay_id: 1, index: 1 });
/** The replays of a recorded call (an erasure finds the calls forked from it). */
replayCallSchema.index({ call_id: 1 });
export const ReplayCall = mongoose.model('ReplayCall', replayCallSchema, 'replay_calls');
export type ReplayCallDoc = InferSchemaType<typeof replayCallSchema>;

const replayTurnSchema = new Schema(
  {
    /** `<replay id>:<call id>:<turn, 4 digits>`: a retried attempt's insert is a duplicate, not a second turn. */
    _id: { type: String, required: true },
    replay_id: { type: String, required: true },
    call_id: { type: String, required: true },
    /** The assistant turn's position among the call's replayed turns (0, 1, …). */
    turn: { type: Number, required: true },
    /** The caller's line the turn answered (the last one before it; null when a tool result came last). */
    caller_text: { type: String, default: null },
    original_text: { type: String, default: null },
    /** `[{name, arguments}]`, JSON. */
    original_tools_json: { type: String, required: true },
    replayed_text: { type: String, default: null },
    replayed_tools_json: { type: String, required: true },
    changed: { type: Boolean, required: true },
    /** `same` (equal words and tool calls), `tool_calls` (they differ), `judged` (the comparer decided). */
    basis: { type: String, enum: ['same', 'tool_calls', 'judged'], required: true },
    explanation: { type: String, default: null },
    model: { type: String, required: true },
    prompt_tokens: { type: Number, required: true },
    completion_tokens: { type: Number, required: true },
  },
  base,
);
replayTurnSchema.index({ replay_id: 1, call_id: 1, turn: 1 });
replayTurnSchema.index({ call_id: 1 });
export const ReplayTurn = mongoose.model('ReplayTurn', replayTurnSchema, 'replay_turns');
export type ReplayTurnDoc = InferSchemaType<typeof replayTurnSchema>;

/** The id of call `callId`'s row in replay `replayId`, and of its turn `turn`. */
export const replayCallId = (replayId: string, callId: string) => `${replayId}:${callId}`;
export const replayTurnId = (replayId: string, callId: string, turn: number) =>
  `${replayId}:${callId}:${String(turn).padStart(4, '0')}`;

/** A tool call as a replay compares it: the function's name and its arguments (JSON text). */
export interface ReplayToolCall {
  name: string;
  arguments: string;
}

/** What a replayed call changed against the recorded one (stored as `summary_json`). */
export interface ReplayCallSummary {
  turns: number;
  turns_changed: number;
  tool_calls: { added: string[]; removed: string[] };
  transfer: { original: boolean; replayed: boolean };
  length: { original_chars: number; replayed_chars: number };
  tokens: {
    original: { prompt: number; completion: number };
    replayed: { prompt: number; completion: number };
  };
  cost_micros: { original: number | null; replayed: number | null };
  /** A `fork` replay's call: the forked call and what changed beyond the summary's counts. */
  fork?: ForkSummary;
}

/** What a forked call changed against the recorded one (src/services/replay-forks.ts `summarizeForkedCall`). */
export interface ForkSummary {
  call_id: string;
  changed: boolean;
  status: { original: string; forked: string };
  end_reason: { original: string | null; forked: string | null };
  /** The forked call's tool calls by how they were answered (`mock_rule` read as 0 from summaries stored before it). */
  tool_results: { recorded: number; mock_rule: number; generated: number };
  verdict: { original: string | null; forked: string | null };
  /** The analyses' structured data of each call and the keys whose values differ (absent on older summaries). */
  structured_data?: {
    original: Record<string, unknown> | null;
    forked: Record<string, unknown> | null;
    changed_keys: string[];
  };
  /** With the replay's `rubric`: the test-suite judge's verdict and score of each call; absent without one. */
  judge?: { original: JudgeSide | null; forked: JudgeSide | null };
}

/** One call's verdict by the test-suite judge (null: its answer never validated). */
export interface JudgeSide {
  verdict: 'pass' | 'fail';
  score: number;
}

/**
 * The id of the test-mode call a `fork` replay `replayId` makes of recorded call `callId` (its position
 * `index`): derived, so a retried activity builds the same call and its workflow runs once.
 */
export const forkedCallId = (replayId: string, callId: string, index: number): string =>
  derivedId('call', idTime(replayId) + index, `${replayId}:${callId}:fork`);

const toolCallObject = z.object({ name: z.string(), arguments: z.string().describe('JSON text.') });
const side = z.object({ text: z.string().nullable(), tool_calls: z.array(toolCallObject) });
const tokens = z.object({ prompt: z.number().int(), completion: z.number().int() });

const pair = (inner: z.ZodType) => z.object({ original: inner, forked: inner });

const ForkObject = z
  .object({
    call_id: z.string().describe('The forked test-mode call (`GET /v1/calls/{id}`).'),
    changed: z
      .boolean()
      .describe(
        "Tool calls, the transfer, the status or end reason, the analysis verdict or the analysis' structured data differ.",
      ),
    status: pair(z.string()),
    end_reason: pair(z.string().nullable()),
    tool_results: z
      .object({ recorded: z.number().int(), mock_rule: z.number().int(), generated: z.number().int() })
      .describe(
        "The forked call's tool calls answered by a recorded result, by the tool's `mock` rule or default, and by a model's made-up one.",
      ),
    verdict: pair(z.enum(['pass', 'fail']).nullable()).describe(
      "The analysis plan's success verdict of each call; null without one.",
    ),
    structured_data: z
      .object({
        original: z.record(z.string(), z.unknown()).nullable(),
        forked: z.record(z.string(), z.unknown()).nullable(),
        changed_keys: z.array(z.string()),
      })
      .optional()
      .describe(
        "The analysis plan's structured data of each call (null without any) and the keys whose values differ (none unless both have structured data).",
      ),
    judge: pair(z.object({ verdict: z.enum(['pass', 'fail']), score: z.number().int() }).nullable())
      .optional()
      .describe(
        "With the replay's `rubric`: the test-suite judge's verdict and score (0–100) of each call; null when its answer never validated.",
      ),
  })
  .describe('`fork` mode: the forked call and what changed.');

const ReplayCallObject = z.object({
  call_id: z.string(),
  forked_call_id: z
    .string()
    .nullable()
    .describe('`fork` mode: the test-mode call that plays this call again (once started); null in `turn` mode.'),
  status: z.enum(REPLAY_CALL_STATUSES),
  changed: z.boolean().nullable().describe('Whether any replayed turn changed; null until replayed.'),
  erased: z.boolean().describe("The recorded call's text was erased or expired since: its turns are no longer shown."),
  summary: z
    .object({
      turns: z.number().int(),
      turns_changed: z.number().int(),
      tool_calls: z
        .object({ added: z.array(z.string()), removed: z.array(z.string()) })
        .describe('Tools the replayed turns called that the recorded ones did not, and those no longer called.'),
      transfer: z
        .object({ original: z.boolean(), replayed: z.boolean() })
        .describe('Whether `transfer_call` was called.'),
      length: z.object({ original_chars: z.number().int(), replayed_chars: z.number().int() }),
      tokens: z.object({ original: tokens, replayed: tokens }),
      cost_micros: z.object({ original: z.number().int().nullable(), replayed: z.number().int().nullable() }),
      fork: ForkObject.optional(),
    })
    .nullable(),
  error: z.string().nullable(),
  turns: z.array(
    z.object({
      turn: z.number().int(),
      caller: z.string().nullable().describe("The caller's line the turn answered."),
      original: side,
      replayed: side,
      changed: z.boolean(),
      basis: z.enum(['same', 'tool_calls', 'judged']),
      explanation: z.string().nullable(),
    }),
  ),
});

/** The `replay` object as the API answers it. */
export const ReplayObject = apiObject(
  'Replay',
  "An agent version's answers regenerated on recorded calls of the agent (`turn` mode: every assistant turn from the recorded context up to it; `fork` mode: each call played again as a test-mode call with a persona caller and mocked tools), each compared with what was said.",
  z.object({
    id: z.string().meta({ examples: ['rpl_01jd5x2v7c0000000000000000'] }),
    object: z.literal('replay'),
    livemode: z.boolean(),
    agent_id: z.string(),
    version: z.number().int().describe('The agent version replayed.'),
    mode: z.enum(REPLAY_MODES),
    rubric: z
      .string()
      .nullable()
      .describe(
        "The rubric the replay judges by: in `turn` mode what counts as a changed turn, in `fork` mode the test-suite judge's; null: none (the default rubric of `turn` mode, no judge in `fork` mode).",
      ),
    rubric_source: z
      .enum(RUBRIC_SOURCES)
      .nullable()
      .describe(
        "Where `rubric` came from: `replay` (the request's `rubric`) or `agent` (the replayed version's `replay_rubric`, used when the request gives none); null: no rubric.",
      ),
    from_turn: z
      .number()
      .int()
      .nullable()
      .describe('`fork` mode: the first caller line the persona says (1-based); null in `turn` mode.'),
    status: z.enum(['running', 'completed']),
    progress: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      running: z.number().int(),
      completed: z.number().int(),
      errored: z.number().int(),
      skipped: z.number().int(),
    }),
    totals: z.object({
      calls_changed: z.number().int(),
      turns: z.number().int(),
      turns_changed: z.number().int(),
      tool_calls_added: z.number().int(),
      tool_calls_removed: z.number().int(),
      transfers_changed: z.number().int(),
      original: z.object({ chars: z.number().int(), tokens, cost_micros: z.number().int().nullable() }),
      replayed: z.object({ chars: z.number().int(), tokens, cost_micros: z.number().int().nullable() }),
    }),
    calls: z.array(ReplayCallObject),
    created: unix,
    completed_at: unix.nullable(),
  }),
);
export type ReplayObject = z.output<typeof ReplayObject>;
export type ReplayCallObject = z.output<typeof ReplayCallObject>;

/** Parses a stored `[{name, arguments}]`. */
export const toolCallsOf = (json: string): ReplayToolCall[] => JSON.parse(json) as ReplayToolCall[];

/** One replayed call's part of the object: its summary and turns (none once its recording was erased). */
export function renderReplayCall(
  callId: string,
  row: WithId<ReplayCallDoc> | undefined,
  turns: WithId<ReplayTurnDoc>[],
  erased: boolean,
  forkedId: string | null = null,
): ReplayCallObject {
  const summary = row?.summary_json ? (JSON.parse(row.summary_json) as ReplayCallSummary) : null;
  if (summary?.fork) summary.fork.tool_results.mock_rule ??= 0; // stored before `mock` rules existed
  return {
    call_id: callId,
    forked_call_id: forkedId,
    status: (row?.status ?? 'pending') as ReplayCallObject['status'],
    changed: summary ? (summary.fork ? summary.fork.changed : summary.turns_changed > 0) : null,
    erased,
    summary,
    error: row?.error ?? null,
    turns: erased
      ? []
      : turns.map((t) => ({
          turn: t.turn,
          caller: t.caller_text ?? null,
          original: { text: t.original_text ?? null, tool_calls: toolCallsOf(t.original_tools_json) },
          replayed: { text: t.replayed_text ?? null, tool_calls: toolCallsOf(t.replayed_tools_json) },
          changed: t.changed,
          basis: t.basis as 'same' | 'tool_calls' | 'judged',
          explanation: t.explanation ?? null,
        })),
  };
}

/** The replay object of a stored replay and its calls' parts (`renderReplayCall`, in the replay's order). */
export function renderReplay(doc: WithId<ReplayDoc>, calls: ReplayCallObject[]): ReplayObject {
  const count = (status: string) => calls.filter((c) => c.status === status).length;
  const sums = calls.map((c) => c.summary).filter((s): s is ReplayCallSummary => s !== null);
  const add = (f: (s: ReplayCallSummary) => number) => sums.reduce((n, s) => n + f(s), 0);
  const cost = (f: (s: ReplayCallSummary) => number | null) =>
    sums.some((s) => f(s) === null) ? null : add((s) => f(s) ?? 0);
  return {
    id: doc._id,
    object: 'replay',
    livemode: doc.livemode,
    agent_id: doc.agent_id,
    version: doc.agent_version,
    mode: doc.mode as ReplayObject['mode'],
    rubric: doc.rubric ?? null,
    rubric_source:
      (doc.rubric_source as ReplayObject['rubric_source'] | null | undefined) ?? (doc.rubric ? 'replay' : null),
    from_turn: doc.mode === 'fork' ? (doc.from_turn ?? 1) : null,
    status: doc.status,
    progress: {
      total: calls.length,
      pending: count('pending'),
      running: count('running'),
      completed: count('completed'),
      errored: count('errored'),
      skipped: count('skipped'),
    },
    totals: {
      calls_changed: calls.filter((c) => c.changed).length,
      turns: add((s) => s.turns),
      turns_changed: add((s) => s.turns_changed),
      tool_calls_added: add((s) => s.tool_calls.added.length),
      tool_calls_removed: add((s) => s.tool_calls.removed.length),
      transfers_changed: sums.filter((s) => s.transfer.original !== s.transfer.replayed).length,
      original: {
        chars: add((s) => s.length.original_chars),
        tokens: { prompt: add((s) => s.tokens.original.prompt), completion: add((s) => s.tokens.original.completion) },
        cost_micros: cost((s) => s.cost_micros.original),
      },
      replayed: {
        chars: add((s) => s.length.replayed_chars),
        tokens: { prompt: add((s) => s.tokens.replayed.prompt), completion: add((s) => s.tokens.replayed.completion) },
        cost_micros: cost((s) => s.cost_micros.replayed),
      },
    },
    calls,
    created: doc.created,
    completed_at: doc.completed_ms == null ? null : Math.floor(doc.completed_ms / 1000),
  };
}
