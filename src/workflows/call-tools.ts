/**
 * `CallTools`: the tool runner of a call, for one run of `callWorkflow`. It owns what the assistant's
 * turns offer and run: the built-in tools' handlers (src/workflows/tools.ts `channelTools`: a phone
 * call's, or a campaign call's with `fill_form` and the form's values kept so far), the organization's
 * tools the agent offers (resolved once the conversation starts, run per call by `runCustomTool` with what
 * their requests carry), and the keys of the run's tool calls (`tc_…`). What a tool does to the call (end
 * it, transfer it, press keys) it asks of the call's record, warm transfer and line.
 *
 * Deterministic workflow code: imports only `@temporalio/workflow`, src/shared and sibling workflow files.
 */
import type { AssistantContextIds } from '../shared/assistant';
import type { AgentSnapshot, CallWorkflowInput } from '../shared/calls';
import { offeredTools, type CustomTool, type SwitchableToolName, type TransferOffer } from '../shared/tools';
import { dialing } from './call-activities';
import type { CallLine } from './call-line';
import type { CallPayments } from './call-payments';
import type { CallRecord } from './call-record';
import {
  channelTools,
  resolveCustomTools,
  toolCallKeys,
  type CallToolTarget,
  type CampaignCallToolTarget,
  type CustomToolSet,
  type ToolHandlers,
} from './tools';
import type { WarmTransfer } from './warm-transfer';

/** A call's tools: the built-in handlers, the organization's tools, the tool calls' keys. */
export class CallTools {
  /** Whom the call is with and which agent answers: the LLM activity loads records and knowledge from these. */
  readonly context: AssistantContextIds;
  /** A campaign's call: the campaign's form and the values `fill_form` kept; null for other calls. */
  readonly form: CampaignCallToolTarget['form'] | null;
  /** The call's tools (src/workflows/tools.ts): a phone call's, or a campaign call's with `fill_form`. */
  handlers: ToolHandlers;
  /**
   * The agent whose tools these are: the call's, or on a squad's call the member answering
   * (`switchAgent`).
   */
  agent: AgentSnapshot;
  /** The organization's tools the agent offers, resolved once the conversation starts. */
  private customTools: Promise<CustomTool[]> | null = null;
  /** The keys of this run's tool calls (`tc_…`). */
  readonly toolCallKey = toolCallKeys();
  /**
   * Every transfer is cold: set while the call runs on the Realtime API (src/workflows/call-realtime.ts),
   * whose SIP leg can only be referred, not held while the person is briefed.
   */
  coldTransfersOnly = false;

  /**
   * @param input the run's input: the agent, the campaign's form (a continued run's values so far)
   * @param record the call's stop, which `end_call` and a cold `transfer_call` request
   * @param warm the call's warm transfers, which `transfer_call` starts when the agent's mode is `warm`
   * @param line the call's line, on which `send_dtmf` presses keys
   * @param payments the call's card payments: `collect_payment` is offered when they are
   */
  constructor(
    private readonly input: CallWorkflowInput,
    record: CallRecord,
    warm: WarmTransfer,
    line: CallLine,
    private readonly payments?: CallPayments,
  ) {
    this.agent = input.agent;
    this.context = {
      orgId: input.orgId,
      livemode: input.livemode,
      agentId: input.agent.id,
      contactId: input.contactId ?? null,
      ...(input.agent_livemode ? { agentLivemode: true } : {}),
    };
    this.form = input.campaign
      ? { definition: input.campaign.form, values: input.continuation?.formValues ?? null }
      : null;
    this.handlers = this.callTools(record, warm, line);
    // Last in the list, and only with a payment connector: every other call offers what it offered before.
    if (payments?.offered) this.handlers.collect_payment = (args, key) => payments.collect(args, key);
    this.targets = { record, warm, line };
  }

  /** What the built-in tools act on (kept to build them again for another agent: `switchAgent`). */
  private readonly targets: { record: CallRecord; warm: WarmTransfer; line: CallLine };

  /**
   * A squad's hand-off (src/workflows/call-squad.ts): the tools from now on are `agent`'s (its transfer
   * settings, optional and switched-off built-ins, its organization's tools resolved again) and the LLM
   * activity loads `agent`'s knowledge.
   * @param resolveNow whether its organization's tools are resolved now (false: at the next `resolve`)
   */
  switchAgent(agent: AgentSnapshot, resolveNow = true): void {
    this.agent = agent;
    this.context.agentId = agent.id;
    if (agent.version != null) this.context.agentVersion = agent.version; // usage rows: the member's
    const { record, warm, line } = this.targets;
    this.handlers = this.callTools(record, warm, line);
    const { payments } = this;
    if (payments?.offered) this.handlers.collect_payment = (args, key) => payments.collect(args, key);
    if (resolveNow) this.resolve();
  }

  /**
   * A squad's call: the model requests from now on are `member`'s (the current agent's), their usage rows
   * name it and carry their own cost (src/services/usage.ts `llmRequestUsage`). No command: the activity
   * inputs' context only.
   */
  meterAs(member: string): void {
    this.context.squadMember = member;
    if (this.agent.version != null) this.context.agentVersion = this.agent.version;
  }

  /**
   * What `end_call`, `transfer_call`, `search_knowledge` (and `fill_form` on a campaign's call, and
   * `schedule_callback` when the agent enables it) reach of this call. A callback goes to the person (an
   * outbound call's `to`, an inbound call's `from`) from the service number (`from`, or an inbound call's `to`).
   */
  private callTools(record: CallRecord, warm: WarmTransfer, line: CallLine): ToolHandlers {
    const { input } = this;
    const inbound = input.direction === 'inbound';
    const person = inbound ? input.from : input.to;
    const call: CallToolTarget = {
      context: this.context,
      room: Boolean(input.room),
      defaultTransferTo: this.agent.transfer_to,
      transferMode: this.agent.transfer_mode ?? 'cold',
      coldOnly: () => this.coldTransfersOnly,
      destinations: this.agent.transfer_destinations ?? null,
      checkTransfer: async (to) => {
        const answer = await dialing.checkTransferDestination.executeWithOptions(
          { summary: `dialing permissions for ${to}` },
          [{ callId: input.callId, orgId: input.orgId, livemode: input.livemode, to }],
        );
        return answer.allowed ? null : answer.message;
      },
      stop: (request) => {
        record.stop ??= request;
      },
      warmTransfer: (to) => {
        if (warm.underWay || record.stop !== null) return 'a transfer is already under way';
        warm.start({ to, mode: 'warm' });
        return null;
      },
      callback: {
        orgId: input.orgId,
        livemode: input.livemode,
        agentId: this.agent.id,
        callbackOf: input.callId,
        to: inbound ? input.from : input.to,
        from: inbound ? input.to : input.from,
        contactId: this.context.contactId,
      },
      sendDigits: (digits) => line.pressKeys(digits),
      optOut:
        input.room || !person
          ? null
          : { orgId: input.orgId, livemode: input.livemode, callId: input.callId, phone: person },
    };
    const enabled = this.enabledTools();
    const off = this.switchedOff();
    return this.form
      ? channelTools('campaign_call', { ...call, form: this.form }, enabled, off)
      : channelTools('phone_call', call, enabled, off);
  }

  /**
   * The default tools this call does not offer: `opt_out` when the agent switches it off (`opt_out_tool:
   * false`) and in a browser voice room (a visitor has no number to stop calling); `transfer_call` when the
   * agent has neither `transfer_destinations` nor `transfer_to` (on calls made since destinations exist:
   * before, it was always offered).
   */
  private switchedOff(): SwitchableToolName[] {
    const { agent } = this;
    const off: SwitchableToolName[] = this.input.room || agent.opt_out_tool === false ? ['opt_out'] : [];
    if (agent.transfer_destinations?.length === 0 && !agent.transfer_to) off.push('transfer_call');
    return off;
  }

  /**
   * What `transfer_call` offers the model on this call (the LLM activity's `transfer`: an enum of the
   * destinations' names), when it is offered and the call has destinations; nothing otherwise.
   */
  transferOffer(): { transfer?: TransferOffer } {
    const { agent } = this;
    if (!agent.transfer_destinations || !('transfer_call' in this.handlers)) return {};
    return {
      transfer: {
        destinations: agent.transfer_destinations.map((d) => ({ name: d.name, description: d.description })),
        hasDefault: Boolean(agent.transfer_to),
      },
    };
  }

  /**
   * The optional built-in tools this call offers: the agent's `enabled_tools`, none in a browser voice
   * room (a visitor has no number to call back).
   */
  private enabledTools(): readonly string[] | undefined {
    return this.input.room ? undefined : this.agent.enabled_tools;
  }

  /** Starts resolving the organization's tools the agent offers (the `resolveTools` activity, if it offers any). */
  resolve(): void {
    this.customTools = resolveCustomTools({
      orgId: this.input.orgId,
      livemode: this.input.agent_livemode ?? this.input.livemode,
      toolIds: this.agent.tool_ids,
      installationIds: this.agent.connector_installation_ids,
      reserved: offeredTools(
        this.input.campaign ? 'campaign_call' : 'phone_call',
        this.enabledTools(),
        this.switchedOff(),
      ),
    });
  }

  /**
   * With `schedule_callback` offered (and the person's number known): `caller`, for the request's clock
   * in their zone (src/workflows/assistant.ts `AssistantTurnInput.caller`); nothing otherwise.
   */
  callbackClock(): { caller?: string } {
    const person = this.input.direction === 'inbound' ? this.input.from : this.input.to;
    return 'schedule_callback' in this.handlers && person ? { caller: person } : {};
  }

  /**
   * The organization's tools this turn offers, with what their requests carry and, for a slow one, its
   * `speak_while_running` said once per turn: `speak` says it (unless the answer is given already) and
   * tells whether it did. Null when the agent has none.
   */
  async customToolSet(speak: (text: string) => boolean): Promise<CustomToolSet | null> {
    const tools = this.customTools ? await this.customTools : [];
    if (tools.length === 0) return null;
    let spoke = false;
    return {
      tools,
      context: {
        orgId: this.input.orgId,
        livemode: this.input.livemode,
        agentId: this.agent.id,
        subject: { kind: 'call', id: this.input.callId },
        contactId: this.context.contactId,
        metadata: this.input.metadata,
      },
      onSlow: (text) => {
        if (spoke) return;
        spoke = speak(text);
      },
    };
  }
}
