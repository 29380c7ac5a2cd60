/**
 * `CallSquad`: a squad's call (`CallWorkflowInput.squad`), for one run of `callWorkflow`. It owns which
 * member answers and how many hand-offs were made; it offers the current member's model one
 * `handoff_to_<name>` function per hand-off the member may make (src/shared/squads.ts), and when the model
 * calls one it hands the call over between two model turns (`complete`): the target member's agent
 * snapshot becomes the call's (system prompt, model, tools, knowledge), its conversation starts from the
 * hand-off's context policy (the summary written by the `generateReply` activity, durable, and kept on the
 * entry), a `handoff` transcript entry is recorded and `call.handed_off` emitted. Past `max_handoffs` a
 * hand-off goes to the `overflow` member, or is refused (the model is told) when the squad has none.
 *
 * On a live call (not simulated), a hand-off to a member whose agent has another voice or language
 * switches the ConversationRelay session to it before the member answers (`switchVoice`), announced by the
 * member handing off when the receiving one's `voice_change` is `announced` (the announcement, once said,
 * is a transcript turn of the member handing off). Simulated calls, realtime calls (their engine configures
 * the Realtime session instead, src/workflows/call-realtime.ts) and hand-offs between members of one voice
 * add no command.
 *
 * Calls without a squad never construct it: their commands are unchanged.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import { patched } from '@temporalio/workflow';
import { callSystemPrompt, type ChatMessage, type ToolCall } from '../shared/assistant';
import type { AgentSnapshot, CallSquad as CallSquadInput, CallSquadMember, CallWorkflowInput } from '../shared/calls';
import {
  contextLabel,
  handoffAnnouncement,
  handoffFunction,
  handoffMessages,
  relayVoiceUpdate,
  routeHandoff,
  type HandoffContext,
} from '../shared/squads';
import { PATCHES } from '../shared/deployments';
import { handoffLlm, telephony } from './call-activities';
import type { CallRecord } from './call-record';
import type { CallTools } from './call-tools';
import type { CallTranscript } from './call-transcript';
import type { ToolEffect } from './tools';

/** What the model is asked for a `summary` hand-off. */
const HANDOFF_SUMMARY_REQUEST =
  'The caller is being handed to another assistant. Summarize this call for it in at most three short sentences: who is calling, what they need, and what was already done or agreed. Answer with the summary only.';

/** A hand-off `complete` made: between which members, by which policy, and the receiving member's start. */
export interface MadeHandoff {
  from: CallSquadMember;
  to: CallSquadMember;
  context: HandoffContext;
  /** The receiving member's system prompt (src/shared/assistant.ts `callSystemPrompt`). */
  systemPrompt: string;
  /** Its conversation: the system prompt, the policy's context, the note (src/shared/squads.ts `handoffMessages`). */
  messages: ChatMessage[];
}

/** The functions the current member offers and their handler, as `assistantTurn` takes them. */
export interface WorkflowFunctions {
  functions: { name: string; description: string; parameters: Record<string, unknown> }[];
  handle(call: ToolCall): ToolEffect;
}

/** A squad call's members, the one answering and the hand-offs so far. */
export class CallSquad {
  /** The member answering now. */
  current: CallSquadMember;
  /** Hand-offs made so far on this call. */
  handoffs: number;
  /** A hand-off the model asked for in the turn under way, made once the turn's tools are done. */
  private pending: { to: CallSquadMember; context: HandoffContext } | null = null;

  constructor(
    private readonly input: CallWorkflowInput,
    private readonly squad: CallSquadInput,
    private readonly record: CallRecord,
    private readonly transcript: CallTranscript,
    private readonly tools: CallTools,
  ) {
    const resumed = input.continuation?.squad;
    this.current = this.member(resumed?.current ?? squad.start);
    this.handoffs = resumed?.handoffs ?? 0;
    // A continued run answers with the member the last run left the caller with: its model, tools (resolved
    // when the conversation starts) and knowledge; its conversation comes from the store, rebuilt from the
    // last `handoff` entry on (src/services/calls.ts `callConversation`).
    if (this.current.name !== squad.start) tools.switchAgent(this.current.agent, false);
    tools.meterAs(this.current.name);
    transcript.speaker = speakerOf(this.current.agent);
  }

  /** The agent answering now (its snapshot at the version the call fixed). */
  get agent(): AgentSnapshot {
    return this.current.agent;
  }

  /** Whether a hand-off waits to be made (`complete`). */
  get handingOff(): boolean {
    return this.pending !== null;
  }

  private member(name: string): CallSquadMember {
    const found = this.squad.members.find((m) => m.name === name);
    if (!found) throw new Error(`squad ${this.squad.id} has no member '${name}'`);
    return found;
  }

  /** The hand-off functions of the current member (none once the call stops), with their handler. */
  functions(): WorkflowFunctions | undefined {
    if (this.current.handoffs.length === 0) return undefined;
    return {
      functions: this.current.handoffs.map(handoffFunction),
      handle: (call) => this.ask(call),
    };
  }

  /**
   * The model called `handoff_to_<name>`: the hand-off is made after the turn's tools (`complete`), to
   * the member named, or past `max_handoffs` to `overflow`; refused (an error for the model) without one,
   * or while one is already pending in this turn.
   */
  private ask(call: ToolCall): ToolEffect {
    if (this.pending !== null) return { summary: 'Error: a hand-off is already under way.', ends: false };
    const route = routeHandoff(this.current, this.squad, this.handoffs, call.name);
    if ('error' in route) return { summary: route.error, ends: false };
    this.pending = { to: this.member(route.to), context: route.context };
    // Ends the turn's tool rounds: the next member answers with its own prompt and tools.
    return { summary: `Handed off to ${route.to}.`, ends: true };
  }

  /**
   * Makes the pending hand-off: the summary (a `summary` policy: the `generateReply` activity over the
   * conversation so far, durable), the target's conversation (src/shared/squads.ts `handoffMessages`), its
   * agent switched in (tools resolved again), the `handoff` entry recorded with the turns before it, and
   * `call.handed_off` emitted with the call showing its new `squad_member`.
   * @returns the hand-off made (the realtime engine configures its session from it), null when none waited
   */
  async complete(): Promise<MadeHandoff | null> {
    const pending = this.pending;
    if (pending === null) return null;
    const { input, transcript } = this;
    const from = this.current;
    const to = pending.to;
    const summary = pending.context === 'summary' ? await this.summarize() : null;
    const systemPrompt = callSystemPrompt({
      agent: to.agent,
      ...(input.direction === 'inbound' ? { to: input.from ?? 'an unknown caller', inbound: true } : { to: input.to }),
      context: input.context,
      form: input.campaign?.form,
    });
    // Since 0.3.0 the voice switches first, so that the announcement is a turn of the member handing off.
    const voice = this.voiceSwitch(to, from);
    const switchFirst = voice !== null && patched(PATCHES.squadAnnouncementTurn);
    if (switchFirst) await this.switchVoice(to, voice);
    const messages = handoffMessages({
      systemPrompt,
      from: from.name,
      to: to.name,
      context: pending.context,
      previous: transcript.messages,
      summary,
    });
    transcript.handOff(
      {
        from: from.name,
        to: to.name,
        context: contextLabel(pending.context),
        ...(summary !== null ? { summary } : {}),
      },
      systemPrompt,
      messages,
    );
    if (voice !== null && !switchFirst) await this.switchVoice(to, voice, false);
    this.current = to;
    this.handoffs++;
    this.pending = null;
    this.tools.switchAgent(to.agent);
    this.tools.meterAs(to.name);
    transcript.speaker = speakerOf(to.agent);
    await transcript.flushTurns();
    await this.record.transition(this.record.status, { squad_member: to.name }, ['call.handed_off']);
    return { from, to, context: pending.context, systemPrompt, messages };
  }

  /**
   * What a hand-off from `from` to `to` changes of a live call's ConversationRelay session: its messages
   * (src/shared/squads.ts `relayVoiceUpdate`) and the announcement said first when `to` is `announced`;
   * null when nothing changes (same voice and language), on simulated calls and on realtime calls (no
   * ConversationRelay session: the engine configures the Realtime session instead).
   */
  private voiceSwitch(
    to: CallSquadMember,
    from: CallSquadMember,
  ): { messages: Record<string, unknown>[]; announce: string | null } | null {
    if (this.input.simulation || to.agent.engine === 'realtime') return null;
    const messages = relayVoiceUpdate(from.agent, to.agent);
    if (messages === null) return null;
    return { messages, announce: to.voice_change === 'announced' ? handoffAnnouncement(to) : null };
  }

  /**
   * The ConversationRelay session switched to `to`'s voice (the `switchVoice` activity), after the
   * announcement said in the current voice when there is one; the announcement the session said is written
   * as an assistant turn of the member handing off (`writeAnnouncement`, runs since 0.3.0). A session that
   * does not take it leaves the call in the voice it had (the hand-off stands, nothing written).
   */
  private async switchVoice(
    to: CallSquadMember,
    voice: { messages: Record<string, unknown>[]; announce: string | null },
    writeAnnouncement = true,
  ): Promise<void> {
    const { delivered } = await telephony.switchVoice.executeWithOptions({ summary: `voice of ${to.name}` }, [
      { callId: this.input.callId, announce: voice.announce, messages: voice.messages },
    ]);
    if (writeAnnouncement && delivered && voice.announce !== null) this.transcript.say('assistant', voice.announce);
  }

  /** The model's summary of the conversation so far (null when it wrote none). */
  private async summarize(): Promise<string | null> {
    const { input, transcript } = this;
    const reply = await handoffLlm.generateReply.executeWithOptions({ summary: 'summary for a squad hand-off' }, [
      {
        callId: input.callId,
        model: this.current.agent.model,
        messages: [...transcript.messages, { role: 'system', content: HANDOFF_SUMMARY_REQUEST }],
        ...transcript.history(),
        tools: [],
        // Metered to the member handing off (its own cost), as its turns are.
        meter: {
          squadMember: this.current.name,
          agentId: this.current.agent.id,
          ...(this.current.agent.version != null ? { agentVersion: this.current.agent.version } : {}),
        },
      },
    ]);
    return reply.text;
  }
}

/** What marks an assistant turn of a squad call: the agent that said it and its version. */
function speakerOf(agent: AgentSnapshot): { id: string; version: number | null } {
  return { id: agent.id, version: agent.version ?? null };
}
