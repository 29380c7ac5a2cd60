/**
 * `CallTranscript`: a call's transcript and the model's conversation, for one run of `callWorkflow`. It
 * owns the turns made so far and those not recorded yet, the chat messages the next LLM request carries
 * (the whole conversation in a run that began the call, `chatLog`; the messages since the last recording
 * in a run that continues a long call, whose LLM activity loads the rest from the store), the writes in
 * flight, and the caller's interruption with what it cuts (the `interrupted` signal, `applyInterruption`).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { CancellationScope } from '@temporalio/workflow';
import type * as llm from '../activities/llm';
import {
  callSystemPrompt,
  type ChatMessage,
  type CallTurnInput,
  type KnowledgeRef,
  type ToolCall,
} from '../shared/assistant';
import type { CallWorkflowInput } from '../shared/calls';
import type { RecordedLatency } from '../shared/latency';
import type { ToolCallRecord } from '../shared/tools';
import { cutByInterruption, MAX_INTERRUPTION_CHARS, type Interruption } from '../shared/speech';
import { localStore } from './call-activities';
import type { CallRecord } from './call-record';
import type { ToolEffect } from './tools';

/** The transcript turns and chat messages of one run of a call. */
export class CallTranscript {
  /** Transcript turns made so far (recorded or pending); the next turn's `seq`. */
  turnCount: number;
  /** Turns said but not yet recorded, and the chat messages said since the last recording. */
  private pendingTurns: CallTurnInput[] = [];
  private pendingMessages: ChatMessage[] = [];
  /**
   * The usage rows of the model's answers not stored yet (the LLM activity's results carry them:
   * src/activities/llm.ts `usageInResult`), stored by the next flush with its turns. Every end of a run
   * flushes (the call's end, continue-as-new), so each answer's row reaches a recorded write.
   */
  private pendingUsage: NonNullable<llm.GenerateReplyResult['usage']>[] = [];
  /**
   * A run that began the call: the whole conversation as the model sees it, system prompt first, held here
   * and sent with each LLM request (a local activity's input is not recorded in the history), so no turn
   * reads the stored transcript back. A run that continues a long call (null here) has the LLM activity
   * load it from the store.
   */
  readonly chatLog: ChatMessage[] | null;
  /** Transcript writes so far (written behind the next turn, awaited before the run ends). */
  private turnWrites: Promise<unknown> = Promise.resolve();
  /** The caller's last interruption (`interrupted` signal) not applied yet; null: none. */
  interruption: Interruption | null = null;
  /**
   * A squad's call (src/workflows/call-squad.ts): the agent answering, marked on each assistant turn;
   * null on every other call (its turns are as they were).
   */
  speaker: { id: string; version: number | null } | null = null;
  /** The assistant's turns said since the caller last spoke (what an interruption cuts), in order. */
  private spokenSince: { seq: number; text: string }[] = [];

  /**
   * @param input the run's input: a continued run counts its turns on from the last run's
   * @param record the call's stream numbering (each turn takes the next number)
   */
  constructor(
    private readonly input: CallWorkflowInput,
    private readonly record: CallRecord,
  ) {
    const resumed = input.continuation;
    this.turnCount = resumed?.turns ?? 0;
    this.chatLog = resumed
      ? null
      : [
          {
            role: 'system',
            content: callSystemPrompt({
              agent: input.agent,
              ...(input.direction === 'inbound'
                ? { to: input.from ?? 'an unknown caller', inbound: true }
                : { to: input.to }),
              context: input.context,
              form: input.campaign?.form,
            }),
          },
        ];
  }

  /** What the next LLM request carries: the whole conversation, or a continued run's messages since the last recording. */
  get messages(): ChatMessage[] {
    return this.chatLog ?? this.pendingMessages;
  }

  /** For a continued run (no `chatLog`): where the LLM activity loads the recorded conversation from. */
  history(): { history?: { callId: string } } {
    return this.chatLog ? {} : { history: { callId: this.input.callId } };
  }

  /** Whether any turn waits to be recorded. */
  get pending(): boolean {
    return this.pendingTurns.length > 0;
  }

  /**
   * Signal `interrupted`: the caller talked over the assistant; kept until the conversation applies it
   * (`applyInterruption`, before the next caller turn or at the end).
   */
  onInterrupted({ spoken, durationMs }: Interruption): void {
    this.interruption = {
      spoken: String(spoken ?? '').slice(0, MAX_INTERRUPTION_CHARS),
      ...(Number.isFinite(durationMs) ? { durationMs } : {}),
    };
  }

  /**
   * Adds a transcript turn of the assistant or the caller (or a `note` for the model), to be recorded with
   * the next flush; `author` `api` for what the API had said or added; `latency` the answer's latency
   * record (src/shared/latency.ts), on the assistant turn whose words the caller heard first.
   * @returns the turn's `seq`
   */
  say(
    role: 'assistant' | 'caller' | 'note',
    text: string,
    knowledge?: KnowledgeRef[],
    author?: 'api',
    latency?: RecordedLatency,
  ): number {
    const seq = this.turnCount++;
    this.pendingTurns.push({
      seq,
      role,
      text,
      atMs: Date.now(),
      ...(knowledge?.length ? { knowledge } : {}),
      ...(author ? { author } : {}),
      ...(role === 'assistant' && this.speaker ? { agent: this.speaker } : {}),
      ...(latency ? { latency } : {}),
      ...this.record.nextStreamEntry(),
    });
    // What an interruption cuts (`applyInterruption`): the assistant's turns since the caller spoke.
    if (role === 'caller') this.spokenSince = [];
    else if (role === 'assistant') this.spokenSince.push({ seq, text });
    return seq;
  }

  /**
   * Adds a caller's backchannel said over the assistant (src/workflows/call-heard.ts): a caller turn
   * marked `backchannel`, which the model does not see and which leaves what an interruption cuts as it was.
   */
  sayBackchannel(text: string): void {
    this.pendingTurns.push({
      seq: this.turnCount++,
      role: 'caller',
      text,
      atMs: Date.now(),
      backchannel: true,
      ...this.record.nextStreamEntry(),
    });
  }

  /** Adds a `system` turn noting what happened on the call, which the model sees too. */
  note(text: string): void {
    this.pendingTurns.push({
      seq: this.turnCount++,
      role: 'system',
      text,
      atMs: Date.now(),
      ...this.record.nextStreamEntry(),
    });
    this.hearMessage({ role: 'system', content: text });
  }

  /**
   * A squad's hand-off (src/workflows/call-squad.ts): a `handoff` entry (who to whom, the context policy,
   * the summary), and the model's conversation from now on is `messages` (the receiving member's system
   * prompt and context). A continued run (no chat log) starts the pending messages from them; once the
   * entry is recorded (with `prompt`, the receiving member's system prompt) its LLM activity rebuilds the
   * same messages from the store (src/services/calls.ts `callConversation`).
   */
  handOff(entry: NonNullable<CallTurnInput['handoff']>, prompt: string, messages: ChatMessage[]): void {
    this.pendingTurns.push({
      seq: this.turnCount++,
      role: 'handoff',
      text: `${entry.from} → ${entry.to}`,
      atMs: Date.now(),
      handoff: entry,
      handoffPrompt: prompt,
      ...this.record.nextStreamEntry(),
    });
    if (this.chatLog) this.chatLog.splice(0, this.chatLog.length, ...messages);
    else this.pendingMessages.splice(0, this.pendingMessages.length, ...messages);
  }

  /** Adds a tool turn: the call the model made, what it did, and its key, outcome and duration. */
  sayTool(call: ToolCall, effect: ToolEffect, record: ToolCallRecord): void {
    this.pendingTurns.push({
      seq: this.turnCount++,
      role: 'tool',
      text: effect.summary,
      atMs: Date.now(),
      toolName: call.name,
      toolArguments: call.arguments,
      toolCallId: call.id,
      toolCall: record,
      ...(effect.knowledge?.length ? { knowledge: effect.knowledge } : {}),
      ...this.record.nextStreamEntry(),
    });
  }

  /**
   * Adds a model answer's usage row to the next flush (`flushTurns`), which stores it; a result without
   * one (its activity stored it, or it was recorded before rows came in results) adds nothing.
   */
  oweUsage(reply: llm.GenerateReplyResult): void {
    if (reply.usage) this.pendingUsage.push(reply.usage);
  }

  /** Adds a message of the other party or a scripted line to what the next LLM request carries. */
  hearMessage(m: ChatMessage): void {
    this.pendingMessages.push(m);
    this.chatLog?.push(m);
  }

  /**
   * Records the turns said since the last recording, with the usage rows of the answers given since
   * (`oweUsage`; a flush with rows and no turn writes the rows alone). A run that holds the whole conversation (`chatLog`)
   * writes a turn's rows while the next turn goes on (`behind`: returns once the write has started), so no
   * store write sits between the caller's line and the model; the writes are idempotent per row id, never
   * cancelled. Otherwise, and always when not `behind`, returns when every write so far is done.
   * @param afterNextRequest with `behind`, after an answer of the pipeline's model: the rows are written
   *   once the call's next model request is sent, or after a bound (src/platform/behind-turn.ts)
   */
  async flushTurns(behind = false, afterNextRequest = false): Promise<void> {
    if (this.pendingTurns.length > 0 || this.pendingUsage.length > 0) {
      const { pendingTurns: turns, pendingUsage: usage } = this;
      this.pendingTurns = [];
      this.pendingUsage = [];
      if (turns.length > 0) this.pendingMessages = [];
      // After an answer, behind: the activity writes the rows once the call's next model request is sent
      // (no store command of this turn's bookkeeping sits beside the next request's context reads).
      const later = afterNextRequest && behind && this.chatLog !== null;
      const write = CancellationScope.nonCancellable(() =>
        localStore.recordTurns({
          callId: this.input.callId,
          turns,
          ...(usage.length > 0 ? { usage } : {}),
          ...(later ? { behind: true } : {}),
        }),
      );
      this.turnWrites = Promise.all([this.turnWrites, write]);
    }
    if (!(behind && this.chatLog !== null)) await this.turnWrites;
  }

  /**
   * Applies the caller's interruption, if one came: the assistant's turns since the caller last
   * spoke keep only what was heard (src/shared/speech.ts `cutByInterruption`) and are marked
   * `interrupted`, in the transcript (a turn not recorded yet is changed before its write; a recorded one
   * is rewritten once its write is done: `interruptTurns`) and in the model's history (the run's chat log,
   * or the messages since the last recording; a continued run's LLM activity reads the rewritten rows), so
   * the next LLM request holds what the caller heard. A run that continued the call after those turns has
   * none of them here: nothing to cut.
   */
  async applyInterruption(): Promise<void> {
    const heard = this.interruption;
    this.interruption = null;
    const said = this.spokenSince;
    if (heard === null || said.length === 0) return;
    this.spokenSince = [];
    const cut = cutByInterruption(
      said.map((t) => t.text),
      heard.spoken,
    );
    const recorded: { seq: number; text: string }[] = [];
    const messages = this.chatLog ?? this.pendingMessages;
    said.forEach((turn, i) => {
      const { text, interrupted } = cut[i];
      if (!interrupted) return;
      const pending = this.pendingTurns.find((t) => t.seq === turn.seq);
      if (pending) Object.assign(pending, { text, interrupted: true });
      else recorded.push({ seq: turn.seq, text });
      for (let m = messages.length - 1; m >= 0; m--) {
        const message = messages[m];
        if (message.role === 'user') break;
        if (message.role === 'assistant' && message.content === turn.text) {
          message.content = text;
          break;
        }
      }
    });
    if (recorded.length === 0) return;
    await this.turnWrites;
    await localStore.interruptTurns({ callId: this.input.callId, turns: recorded });
  }
}
