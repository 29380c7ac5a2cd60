/**
 * `HeardActions`: nothing happens on a call that the caller did not hear, for one run of `callWorkflow`.
 * Three rules, on calls whose agent snapshot has `turn_taking` (every call made since it exists; older
 * calls, and their recorded histories, run as before):
 *
 * 1. **Interrupted answers act on nothing.** Before an answer's tool calls run (src/workflows/assistant.ts
 *    `AssistantTurnInput.actions`), if the caller has already talked over it, none of them runs: each is
 *    recorded `{outcome: "dropped", reason: "interrupted"}` and the model is told it did not run; the
 *    transcript keeps what was heard of the answer (src/workflows/call-transcript.ts `applyInterruption`).
 *    An answer that speaks and ends or transfers the call (`end_call`, `transfer_call`) on a live call
 *    first waits until its words are likely heard (`speechEstimateMs`, the ConversationRelay session's
 *    own estimate: Twilio reports no end of speech) and is dropped when the caller interrupts meanwhile. A
 *    simulated call's caller interrupts by script (`simulation.barge_ins`: the next line said over it).
 * 2. **Backchannels are no turns.** A caller line said over the assistant (a live utterance the relay marks
 *    `over_speech`, a scripted barge-in) that is only a backchannel of the agent's language
 *    (src/shared/turn-taking.ts `isBackchannel`) is recorded `backchannel: true`, cuts nothing, drops
 *    nothing and starts no model turn.
 * 3. **`confirm: true` tools wait for a yes.** A call of such a tool is held (`{outcome: "held", reason:
 *    "confirmation_required"}`; the model is told to ask). The caller's next turn decides
 *    (src/shared/turn-taking.ts `confirmationOf`): a yes runs it (a new entry, `outcome: "confirmed"`,
 *    with its own idempotency key), anything else drops it (`reason: "not_confirmed"`); then the model answers
 *    that turn as usual.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { condition } from '@temporalio/workflow';
import type { ToolCall } from '../shared/assistant';
import type { CallWorkflowInput, SimulatedBargeIn } from '../shared/calls';
import { backchannelsFor, confirmationOf, isBackchannel } from '../shared/turn-taking';
import type { ActionVerdict } from './assistant';
import type { CallTools } from './call-tools';
import type { CallTranscript } from './call-transcript';
import { runCustomTool } from './tools';

/** The built-in tools that end the caller's time with the assistant: never run from an unheard answer. */
const LINE_ENDING_TOOLS = new Set(['end_call', 'transfer_call']);
/** Speaking pace assumed for an answer's words (ms per character) and its synthesis delay: as the relay's. */
const SPEECH_MS_PER_CHAR = 70;
const SPEECH_START_MS = 500;
/** Longest wait for an answer to be heard before its line-ending action runs (ms). */
const MAX_HEARD_WAIT_MS = 15_000;

/**
 * Rule 1's verdict on each call of an answer the caller interrupted: not run, and the model told so (the
 * realtime engine gives its dropped calls the same, src/workflows/call-realtime.ts).
 */
export const DROPPED_BY_INTERRUPTION: Extract<ActionVerdict, { run: false }> = {
  run: false,
  outcome: 'dropped',
  reason: 'interrupted',
  summary: 'Not run: the caller talked over your answer before it was heard. Listen to them first.',
};

/** The built-in tools that end the caller's time with the assistant (rule 1): never run from an unheard answer. */
export function endsTheLine(toolName: string): boolean {
  return LINE_ENDING_TOOLS.has(toolName);
}

/** How long an answer of `text` takes to be heard on the phone (ms): synthesis, then the characters spoken. */
export function speechEstimateMs(text: string): number {
  return Math.min(MAX_HEARD_WAIT_MS, SPEECH_START_MS + text.length * SPEECH_MS_PER_CHAR);
}

/** The heard-only rules of one run of a call. */
export class HeardActions {
  /** Whether the call follows these rules (its snapshot has `turn_taking`). */
  readonly enabled: boolean;
  /** The backchannels of the agent's language. */
  private readonly backchannels: readonly string[];
  /** Calls of `confirm: true` tools waiting for the caller's next turn, in the model's order. */
  private held: ToolCall[] = [];
  /** A simulated call: the scripted barge-in over the answer being given (the next line's), or null. */
  private bargeIn: SimulatedBargeIn | null = null;

  /**
   * @param input the run's input: the agent's `turn_taking` and language, the simulation's barge-ins
   * @param transcript where interruptions arrive and entries are recorded
   * @param tools the organization's tools (which ones need a confirmation) and the tool calls' keys
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly transcript: CallTranscript,
    private readonly tools: CallTools,
  ) {
    this.enabled = input.agent.turn_taking !== undefined;
    this.backchannels = this.enabled ? backchannelsFor(input.agent.turn_taking, input.agent.language) : [];
  }

  /** The scripted barge-in of caller line `index` (a simulated call), or null. */
  private scripted(index: number): SimulatedBargeIn | null {
    return this.input.simulation?.barge_ins?.find((b) => b.line === index) ?? null;
  }

  /**
   * Whether the caller's line is a backchannel said over the assistant (rule 2): a live utterance marked
   * `overSpeech`, or scripted line `lineIndex` that is a barge-in. Always false on calls without the rules.
   */
  isBackchannel(text: string, overSpeech: boolean, lineIndex?: number): boolean {
    if (!this.enabled) return false;
    const over = overSpeech || (lineIndex !== undefined && this.scripted(lineIndex) !== null);
    return over && isBackchannel(text, this.backchannels);
  }

  /**
   * A simulated call, before the assistant answers: whether the caller's next scripted line (`nextIndex`)
   * barges in over this answer (not as a backchannel); kept for `verdicts` and `afterAnswer`.
   */
  expectBargeIn(nextIndex: number): void {
    const simulation = this.input.simulation;
    const next = this.enabled ? this.scripted(nextIndex) : null;
    const line = next && simulation ? simulation.caller[nextIndex] : undefined;
    this.bargeIn = next && line !== undefined && !isBackchannel(line, this.backchannels) ? next : null;
  }

  /**
   * After the answer: a scripted barge-in interrupts it where the caller had heard `heard` (the transcript
   * then keeps only that, as a live interruption does).
   */
  afterAnswer(): void {
    if (this.bargeIn === null) return;
    this.transcript.onInterrupted({ spoken: this.bargeIn.heard ?? '' });
    this.bargeIn = null;
  }

  /**
   * Rules 1 and 3 for the tool calls of one answer (`AssistantTurnInput.actions`): all dropped when the
   * caller interrupted before they started (a live call with a line-ending call and words first waits for
   * the words to be heard), else calls of `confirm: true` tools held, the others run.
   */
  async verdicts(calls: ToolCall[], text: string | null): Promise<ActionVerdict[]> {
    if (await this.interrupted(calls, text)) return calls.map(() => DROPPED_BY_INTERRUPTION);
    const confirming = await this.confirmingTools();
    return calls.map((call): ActionVerdict => {
      if (!confirming.has(call.name)) return { run: true };
      this.held.push(call);
      return {
        run: false,
        outcome: 'held',
        reason: 'confirmation_required',
        summary: `Not run yet: ${call.name} needs the caller's spoken confirmation. Tell them exactly what you are about to do and ask them to confirm; it runs only if their next answer is yes.`,
      };
    });
  }

  /** Whether the caller interrupted the answer before its calls start (rule 1). */
  private async interrupted(calls: ToolCall[], text: string | null): Promise<boolean> {
    if (this.input.simulation) return this.bargeIn !== null;
    const { transcript } = this;
    if (transcript.interruption !== null) return true;
    if (!text || !calls.some((c) => LINE_ENDING_TOOLS.has(c.name))) return false;
    // The answer's words are on their way to the caller: its hang-up or transfer waits until they are heard.
    return await condition(() => transcript.interruption !== null, speechEstimateMs(text));
  }

  /** The names of the organization's tools of this call that need a confirmation. */
  private async confirmingTools(): Promise<Set<string>> {
    const set = await this.tools.customToolSet(() => false);
    return new Set((set?.tools ?? []).filter((t) => t.confirm).map((t) => t.name));
  }

  /**
   * Rule 3 at the caller's next turn (`text`, already in the transcript and the model's conversation):
   * a yes runs the held calls (each a new entry, `confirmed`), anything else drops them (`not_confirmed`);
   * either way the model's conversation gets the call and its outcome before it answers.
   */
  async settle(text: string): Promise<void> {
    if (this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    const yes = confirmationOf(text, this.input.agent.language) === 'yes';
    const set = yes ? await this.tools.customToolSet(() => false) : null;
    for (const original of held) {
      const call: ToolCall = { ...original, id: `${original.id}_confirmed` };
      const key = this.tools.toolCallKey(call.id);
      const tool = set?.tools.find((t) => t.name === call.name);
      const { effect, record } =
        yes && set && tool
          ? await runCustomTool(set, tool, call, key)
          : {
              effect: { summary: `Not run: the caller did not confirm ${call.name}.`, ends: false },
              record: { toolCallId: key, ok: false, status: null, durationMs: 0 },
            };
      const outcome =
        yes && tool ? ({ outcome: 'confirmed' } as const) : ({ outcome: 'dropped', reason: 'not_confirmed' } as const);
      this.transcript.sayTool(call, effect, { ...record, ...outcome });
      this.transcript.hearMessage({ role: 'assistant', content: null, tool_calls: [call] });
      this.transcript.hearMessage({ role: 'tool', tool_call_id: call.id, content: effect.summary });
    }
  }
}
