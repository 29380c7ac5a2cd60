/**
 * `conversationWorkflow`: one WhatsApp, SMS or web-widget conversation, for one organization, mode, channel
 * and customer (workflow id `conv:<org>:<test|live>:<channel>:n_<keyed hash of the number>`, src/shared/conversations.ts; on the
 * `web` channel the "number" is `user:<id>` or `visitor:<id>`). On `web`, each message stored is also
 * appended to the conversation's log (`appendConversationLog`, numbered 1, 2, … in the order the work lane
 * stores them), which the widget's server-sent event stream replays.
 * The shape is the entity pattern of temporalio/samples-typescript `safe-message-handlers`: one-line
 * handlers over a `ConversationSession` (src/workflows/conversation-session.ts: the state, the ordered work
 * lane and the assistant lane), `allHandlersFinished` before continue-as-new.
 *
 * Hand-over: the `handoff_to_person` tool (or an assistant that cannot answer, or no agent) sets
 * `needs_person` and emits `conversation.needs_person` once; while it lasts the assistant sends nothing,
 * inbound messages are still stored (and emit `message.received`); the `resume` update gives the
 * conversation back, and the assistant is told that a person handled the gap. Opt-out words stop the
 * assistant until the customer opts in.
 *
 * The workflow continues as new when Temporal suggests it (or at `continueAsNewAtHistoryLength`), after
 * its handlers and queue are done, carrying its state; it ends after `IDLE_CLOSE_MS` without activity, and
 * the next message starts a fresh run that loads its state from the store.
 */
import { makeContinueAsNewFunc, setHandler, setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import { versioningBehavior } from './versioning';
import {
  conversationStateQuery,
  inboundSignal,
  outboundSignal,
  providerStatusSignal,
  receiveUpdate,
  resumeUpdate,
  handoffUpdate,
  type ConversationWorkflow,
  type ConversationWorkflowInput,
} from '../shared/conversations';
import { ConversationSession } from './conversation-session';

/**
 * Runs one conversation (see the module comment). Never fails on its own: an assistant that cannot
 * answer hands the conversation to a person, and a message the provider refuses is `failed`.
 * @param input the conversation's identity, and the state carried by a continue-as-new
 */
export async function conversationWorkflow(input: ConversationWorkflowInput): Promise<void> {
  const session = new ConversationSession(input);
  setHandler(inboundSignal, (message) => session.inbound(message));
  setHandler(receiveUpdate, (message) => session.receive(message));
  setHandler(outboundSignal, (message) => session.outbound(message));
  setHandler(providerStatusSignal, (report) => session.providerStatus(report));
  setHandler(resumeUpdate, () => session.resume());
  setHandler(handoffUpdate, (input) => session.handoff(input));
  setHandler(conversationStateQuery, () => session.state());

  await session.load();
  void session.workLane();
  void session.assistantLane();

  for (;;) {
    const woke = await session.waitForActivity();
    if (session.shouldContinueAsNew()) {
      // A pinned run whose deployment moved on: its next run starts on the current version (Worker Versioning's
      // upgrade on continue-as-new), then stays pinned there.
      const upgrade = workflowInfo().targetWorkerDeploymentVersionChanged;
      const next = makeContinueAsNewFunc<ConversationWorkflow>(
        upgrade ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {},
      );
      await next(await session.drain());
    }
    if (!woke && session.idle()) return;
  }
}

// Worker Versioning (src/shared/deployments.ts): Pinned; moves to a new current version by continuing as new between messages (`shouldContinueAsNew`).
setWorkflowOptions(versioningBehavior('PINNED'), conversationWorkflow);
