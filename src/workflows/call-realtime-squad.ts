/**
 * A squad on the realtime engine (src/workflows/call-realtime.ts, src/workflows/call-squad.ts): the session
 * configuration of the agent answering (the accept's, then each hand-off's `session.update`) and what a
 * hand-off sends on the call's sideband (src/shared/realtime.ts `RealtimeMemberSwitch`).
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared, sibling workflow files and
 * activity types.
 */
import { log, proxyActivities } from '@temporalio/workflow';
import type * as realtimeActivities from '../activities/realtime';
import type { CallWorkflowInput } from '../shared/calls';
import type { RealtimeMemberSwitch } from '../shared/realtime';
import { roomVoice } from '../shared/speech';
import { realtimeTurnDetection } from '../shared/turn-taking';
import type { CallSquad } from './call-squad';
import type { CallTools } from './call-tools';
import type { CallTranscript } from './call-transcript';

/** The member's session configuration (`realtimeMemberSession`): 10 s per try, 3 tries. */
const memberSessions = proxyActivities<typeof realtimeActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 3 },
});

/** What of a realtime call its session configuration reads. */
export interface RealtimeCallParts {
  input: CallWorkflowInput;
  tools: CallTools;
  transcript: CallTranscript;
  /** A squad's call: its members and hand-offs; null for a call of one agent. */
  squad: CallSquad | null;
}

/**
 * What configures the session for `agent` (the call's, or the squad member answering): the system prompt
 * the transcript starts from, the call's context, the agent's speech and turn detection, the built-in
 * tools, the organization's tools and a squad member's hand-offs as functions, the transfer offer.
 */
export async function realtimeSessionInput(call: RealtimeCallParts, agent: CallWorkflowInput['agent']) {
  const { input, tools, transcript, squad } = call;
  const custom = await tools.customToolSet(() => false);
  const system = transcript.messages.find((m) => m.role === 'system');
  const functions = [
    ...(custom?.tools.map(({ name, description, parameters }) => ({ name, description, parameters })) ?? []),
    ...(squad?.functions()?.functions ?? []),
  ];
  return {
    callId: input.callId,
    instructions: system?.content ?? agent.instructions,
    context: tools.context,
    speech: agent,
    tools: Object.keys(tools.handlers),
    turnDetection: realtimeTurnDetection(agent.turn_taking),
    ...(custom || functions.length ? { functions } : {}),
    ...tools.transferOffer(),
  };
}

/**
 * A squad's hand-off the model asked for (`CallSquad.complete`, as on the pipeline), and what the
 * sideband sends for it: the receiving member's `session.update` (activity `realtimeMemberSession`; the
 * voice only while the model has said nothing, `answered` false: OpenAI changes a session's voice only
 * before its first audio, so a member with another voice keeps the session's, logged), the items its
 * policy keeps and its system notes (the summary, the hand-off note: src/shared/squads.ts `handoffMessages`).
 * @returns undefined when no hand-off waited (or the squad refused it)
 */
export async function realtimeHandOff(
  call: RealtimeCallParts,
  answered: boolean,
): Promise<RealtimeMemberSwitch | undefined> {
  const made = (await call.squad?.complete()) ?? null;
  if (made === null) return undefined;
  const voice = roomVoice(made.to.agent, 'alloy');
  if (answered && voice !== roomVoice(made.from.agent, 'alloy'))
    log.warn('realtime hand-off keeps the session voice: OpenAI changes it only before the first audio', {
      callId: call.input.callId,
      to: made.to.name,
      voice,
    });
  const session = await memberSessions.realtimeMemberSession.executeWithOptions(
    { summary: `session of ${made.to.name}` },
    [{ ...(await realtimeSessionInput(call, made.to.agent)), withVoice: !answered }],
  );
  const { context } = made;
  return {
    session,
    keep: context === 'all' ? 'all' : context === 'summary' ? 'none' : { last: context.last },
    notes: made.messages
      .slice(1)
      .filter((m) => m.role === 'system')
      .map((m) => String(m.content)),
  };
}
