/**
 * Squads on the realtime engine (OpenAI's Realtime API over SIP) through the real API, Temporal and store,
 * against the loopback fake of the Realtime API: a squad of realtime agents is accepted and a squad mixing
 * engines refused (400 naming the member's `agent_id`, nothing written); a test call is handed through
 * three members, one hand-off per context policy, and the fake's wire shows each hand-off as the sideband
 * sent it: the receiving member's `session.update` (its instructions, its tools with its own hand-offs,
 * its turn detection, no voice once the model has spoken), the conversation items its policy drops
 * deleted (`all`: none; `last: 2`: all but the last two messages with words; `summary`: all), its system
 * notes created (the summary, the hand-off note), then `response.create`. The transcript has the
 * `handoff` entries and each answer marked with the member's agent; `call.handed_off` is emitted per hand-off.
 */
import { expect } from 'chai';
import type { RealtimeClientEvent, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { Event } from '../../src/models/events';
import { newTenant, request, waitForCall } from '../support/harness';
import { useFakeRealtime } from '../support/realtime-fixture';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const post = (t: Tenant, path: string, body: unknown = {}) => request('POST', path, { key: t.testKey, body });

/** The note the receiving member's model gets (src/shared/squads.ts `handoffMessages`). */
const handed = (to: string, from: string) =>
  `The caller was handed to you (${to}) by ${from}. Continue the conversation: answer the caller now.`;

/**
 * The conversation's items as the wire shows them, in order: the fake's (committed caller audio, output
 * items, `response.done` outputs) among `server` and the sideband's own creations among `client`; an
 * item is `spoken` once a transcript with words named it.
 */
function wireItems(server: RealtimeServerEvent[], client: RealtimeClientEvent[]) {
  const items: { id: string; spoken: boolean }[] = [];
  const add = (id: string | undefined, spoken = false) => {
    if (!id) return;
    const known = items.find((i) => i.id === id);
    if (known) known.spoken ||= spoken;
    else items.push({ id, spoken });
  };
  for (const e of server) {
    if (e.type === 'input_audio_buffer.committed') add(e.item_id);
    if (e.type === 'response.output_item.added') add(e.item.id);
    if (e.type === 'conversation.item.input_audio_transcription.completed') add(e.item_id, e.transcript.trim() !== '');
    if (e.type === 'response.output_audio_transcript.done') add(e.item_id, e.transcript.trim() !== '');
    if (e.type === 'response.done') for (const o of e.response.output ?? []) add(o.id);
  }
  const own = client.flatMap((e) => (e.type === 'conversation.item.create' && e.item.id ? [e.item.id] : []));
  return { items, own };
}

describe('squads on the realtime engine', function () {
  this.timeout(120_000);
  const realtime = useFakeRealtime();
  const { withRealtime } = realtime;

  it('refuses a squad mixing engines and hands a realtime call through each context policy', async () => {
    await withRealtime(async () => {
      const t = await newTenant({ engine: 'realtime' });
      const agent = async (name: string, instructions: string, extra: Record<string, unknown> = {}) => {
        const res = await post(t, '/v1/agents', { name, instructions, engine: 'realtime', ...extra });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.id as string;
      };
      const reception = await agent('Reception', 'You are the receptionist of Acme Dental.', {
        first_message: 'Acme Dental, hello.',
      });
      const booking = await agent('Booking', 'You book appointments at Acme Dental.');
      const billing = await agent('Billing', 'You answer billing questions at Acme Dental.', {
        turn_taking: { turn_detection: { type: 'semantic_vad', eagerness: 'low' } },
      });
      const pipeline = await post(t, '/v1/agents', { name: 'Pipeline', instructions: 'You talk.' });
      expect(pipeline.status).to.equal(200);

      const members = (billingAgent: string) => [
        {
          name: 'reception',
          agent_id: reception,
          handoffs: [{ to: 'booking', description: 'The caller wants an appointment.', context: 'all' }],
        },
        {
          name: 'booking',
          agent_id: booking,
          handoffs: [{ to: 'billing', description: 'The caller asks about a bill.', context: { last: 2 } }],
        },
        {
          name: 'billing',
          agent_id: billingAgent,
          handoffs: [{ to: 'reception', description: 'The caller is done with billing.', context: 'summary' }],
        },
      ];
      const mixed = await post(t, '/v1/squads', {
        name: 'Mixed',
        start: 'reception',
        members: members(pipeline.body.id),
      });
      expect(mixed.status, JSON.stringify(mixed.body)).to.equal(400);
      expect(mixed.body.error.param).to.equal('members[2].agent_id');
      expect(mixed.body.error.message).to.match(
        /pipeline engine .* realtime engine; a squad's members share one engine/,
      );
      expect((await request('GET', '/v1/squads', { key: t.testKey })).body.data).to.have.length(0);

      const squad = await post(t, '/v1/squads', { name: 'Desk', start: 'reception', members: members(billing) });
      expect(squad.status, JSON.stringify(squad.body)).to.equal(200);
      const placed = await post(t, '/v1/calls', {
        to: '+14155550177',
        squad_id: squad.body.id,
        simulation: {
          caller: [
            'Hello.',
            'TOOL handoff_to_booking {}',
            'I need a cleaning.',
            'TOOL handoff_to_billing {}',
            'How much is it?',
            'TOOL handoff_to_reception {}',
            'Thanks.',
            'TOOL end_call {}',
          ],
        },
      });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
      const call = await waitForCall(t.testKey, placed.body.id, undefined, 90_000);
      expect(call).to.include({ status: 'completed', engine: 'realtime', engine_fallback: null });
      expect(call.squad_member).to.equal('reception');

      const rt = realtime.fake.callFor(call.id)!;
      const accept = rt.accept as any;
      expect(accept.instructions).to.contain('You are the receptionist');
      expect(accept.tools.map((x: any) => x.name))
        .to.include('handoff_to_booking')
        .and.not.include('handoff_to_billing');

      // Each hand-off on the wire: the call's output, session.update, the deletes, the notes, response.create.
      const client = rt.clientEvents;
      const updates = client.flatMap((e, i) => (e.type === 'session.update' ? [i] : []));
      expect(updates).to.have.length(3);
      const sessions = updates.map((i) => (client[i] as any).session);
      expect(sessions.map((s) => s.type)).to.deep.equal(['realtime', 'realtime', 'realtime']);
      expect(sessions[0].instructions).to.contain('You book appointments');
      expect(sessions[1].instructions).to.contain('You answer billing questions');
      expect(sessions[2].instructions).to.contain('You are the receptionist');
      const names = (s: any) => (s.tools ?? []).map((x: any) => x.name);
      expect(names(sessions[0])).to.include('handoff_to_billing').and.not.include('handoff_to_booking');
      expect(names(sessions[1])).to.include('handoff_to_reception').and.not.include('handoff_to_billing');
      expect(names(sessions[2])).to.include('handoff_to_booking').and.not.include('handoff_to_reception');
      for (const s of sessions) expect(names(s)).to.include('end_call');
      expect(sessions[1].audio.input.turn_detection).to.include({ type: 'semantic_vad', eagerness: 'low' });
      expect(sessions[0].audio.input.turn_detection.type).to.equal('server_vad');
      // The greeting was audio: the session's voice cannot change any more, so none is sent.
      for (const s of sessions) expect(s.audio.output, JSON.stringify(s)).to.equal(undefined);

      const after = (i: number) => {
        const next = client.slice(i + 1);
        const end = next.findIndex((e) => e.type === 'response.create');
        expect(end, 'response.create after the hand-off').to.be.greaterThan(-1);
        return next.slice(0, end);
      };
      const deletes = (i: number) =>
        after(i).flatMap((e) => (e.type === 'conversation.item.delete' ? [e.item_id] : []));
      const notes = (i: number) =>
        after(i).flatMap((e) =>
          e.type === 'conversation.item.create' && e.item.type === 'message' && e.item.role === 'system'
            ? [(e.item.content[0] as { text: string }).text]
            : [],
        );
      // Each output of a hand-off call comes right before its session.update.
      for (const i of updates) {
        const out = client[i - 1];
        expect(out.type === 'conversation.item.create' && out.item.type === 'function_call_output').to.equal(true);
      }

      // What the session held at each hand-off: every item the wire showed up to the call, minus those deleted.
      const cut = (name: string) =>
        rt.serverEvents.findIndex(
          (e) => e.type === 'response.done' && (e.response.output ?? []).some((o: any) => o.name === name),
        );
      const deleted = new Set<string>();
      const held = (call: string, update: number) => {
        const { items, own } = wireItems(rt.serverEvents.slice(0, cut(call) + 1), client.slice(0, update));
        return [
          ...items,
          ...own.filter((id) => !items.some((x) => x.id === id)).map((id) => ({ id, spoken: false })),
        ].filter((x) => !deleted.has(x.id));
      };
      // all: nothing deleted.
      const first = held('handoff_to_booking', updates[0]);
      expect(deletes(updates[0])).to.deep.equal([]);
      expect(notes(updates[0])).to.deep.equal([handed('booking', 'reception')]);
      // last: 2: all but the last two messages with words, which are the caller's line and its answer.
      const second = held('handoff_to_billing', updates[1]);
      expect(second.length).to.be.greaterThan(first.length);
      const kept = second.filter((x) => x.spoken).slice(-2);
      expect(kept).to.have.length(2);
      expect(deletes(updates[1]).sort()).to.deep.equal(
        second
          .filter((x) => !kept.includes(x))
          .map((x) => x.id)
          .sort(),
      );
      for (const id of deletes(updates[1])) deleted.add(id);
      expect(notes(updates[1])).to.deep.equal([handed('billing', 'booking')]);
      // summary: every item deleted, the summary and the note added.
      const third = held('handoff_to_reception', updates[2]);
      expect(deletes(updates[2]).sort()).to.deep.equal(third.map((x) => x.id).sort());
      expect(deletes(updates[2])).to.include.members(kept.map((x) => x.id));

      const transcript = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body;
      const handoffs = transcript.turns.filter((x: { role: string }) => x.role === 'handoff');
      expect(handoffs.map((x: any) => [x.handoff.from, x.handoff.to, x.handoff.context])).to.deep.equal([
        ['reception', 'booking', 'all'],
        ['booking', 'billing', 'last:2'],
        ['billing', 'reception', 'summary'],
      ]);
      const summary = handoffs[2].handoff.summary as string;
      expect(summary).to.be.a('string').and.not.equal('');
      expect(notes(updates[2])).to.deep.equal([
        `Summary of the conversation so far: ${summary}`,
        handed('reception', 'billing'),
      ]);
      // Each answer is marked with the member that gave it.
      const speakers = transcript.turns
        .filter((x: { role: string }) => x.role === 'assistant')
        .map((x: { text: string; agent_id: string }) => [x.text, x.agent_id]);
      // The greeting: the opening a pipeline call says (the AI disclosure, then the first message).
      expect(speakers[0][0]).to.match(/Acme Dental, hello\.$/);
      expect(speakers[0][1]).to.equal(reception);
      expect(speakers.slice(1)).to.deep.equal([
        ['You said: Hello.', reception],
        ['Tool said: Handed off to booking.', booking],
        ['You said: I need a cleaning.', booking],
        ['Tool said: Handed off to billing.', billing],
        ['You said: How much is it?', billing],
        ['Tool said: Handed off to reception.', reception],
        ['You said: Thanks.', reception],
      ]);
      const events = await Event.find({ object_id: call.id, type: 'call.handed_off' }).lean();
      expect(events).to.have.length(3);
    });
  });
});
