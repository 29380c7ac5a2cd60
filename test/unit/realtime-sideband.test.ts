/**
 * The realtime session's sideband (src/voice/realtime-session.ts) on a scripted socket: what it tells the
 * workflow, and in how many signals. An answer that speaks and calls a function is told as one signal (its
 * words marked `thenCalls`, then its calls), so one workflow task runs the calls; events that come while a
 * signal is on its way go together in the next one, in order, numbered on.
 */
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type WebSocket from 'ws';
import type { RealtimeCallEvent, RealtimeOutputsReply } from '../../src/shared/realtime';
import type { ToolCallOutcome } from '../../src/shared/tools';
import { RealtimeSideband, type SidebandToolRunner } from '../../src/voice/realtime-session';

/** A socket the test drives: server events in by `serverSays`, client events kept in `sent`. */
class ScriptedSocket extends EventEmitter {
  readonly OPEN = 1;
  readonly CONNECTING = 0;
  readyState = 1;
  readonly sent: { type: string }[] = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { type: string });
  }
  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.emit('close', 1000);
  }
  serverSays(event: Record<string, unknown>): void {
    this.emit('message', Buffer.from(JSON.stringify({ event_id: 'e', ...event })));
  }
}

const tick = () => new Promise((r) => setImmediate(r));

/**
 * A session on a scripted socket whose signals resolve when the test says (`release`), and whose
 * `realtimeOutputs` asks never answer (the outputs are not what these tests look at).
 */
function session(tools?: SidebandToolRunner) {
  const socket = new ScriptedSocket();
  const signals: RealtimeCallEvent[][] = [];
  const pending: (() => void)[] = [];
  const cancel: { reject?: (err: Error) => void } = {};
  const sideband = new RealtimeSideband({
    socket: socket as unknown as WebSocket,
    greeting: null,
    attach: 1,
    outboxFrom: 0,
    awaited: 0,
    interruptOnSpeech: true,
    ...(tools ? { tools } : {}),
    tell: (events) => {
      signals.push(events);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    outputs: () => new Promise<RealtimeOutputsReply>(() => undefined),
    heartbeat: () => undefined,
    cancelled: new Promise<never>((_, reject) => (cancel.reject = reject)),
  });
  const running = sideband.run().catch(() => undefined);
  socket.emit('open');
  return {
    socket,
    signals,
    release: () => pending.shift()?.(),
    stop: async () => {
      cancel.reject!(new Error('cancelled'));
      await running;
    },
  };
}

describe('realtime sideband: signals to the workflow', () => {
  it("tells an answer's words and its function calls in one signal", async () => {
    const s = session();
    s.socket.serverSays({ type: 'response.created', response: { id: 'r1' } });
    s.socket.serverSays({
      type: 'response.output_audio_transcript.done',
      response_id: 'r1',
      item_id: 'm1',
      output_index: 0,
      content_index: 0,
      transcript: 'Let me look that up.',
    });
    s.socket.serverSays({
      type: 'response.done',
      response: {
        id: 'r1',
        status: 'completed',
        output: [
          { type: 'message', id: 'm1', content: [{ type: 'output_audio', transcript: 'Let me look that up.' }] },
          { type: 'function_call', id: 'f1', call_id: 'call_1', name: 'lookup_order', arguments: '{}' },
        ],
      },
    });
    await tick();
    expect(s.signals).to.have.length(1);
    expect(s.signals[0].map((e) => [e.type, e.seq, e.attach])).to.deep.equal([
      ['assistant', 1, 1],
      ['function_calls', 2, 1],
    ]);
    expect(s.signals[0][0]).to.include({ text: 'Let me look that up.', thenCalls: true });
    expect(s.signals[0][1]).to.deep.include({
      calls: [{ id: 'call_1', name: 'lookup_order', arguments: '{}' }],
      responseId: 'r1',
      interrupted: false,
      said: 'Let me look that up.',
    });
    await s.stop();
  });

  it('sends what came while a signal was on its way in the next signal, in order', async () => {
    const s = session();
    const caller = (transcript: string) =>
      s.socket.serverSays({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: 'i',
        content_index: 0,
        transcript,
      });
    caller('first');
    await tick();
    expect(s.signals.map((x) => x.map((e) => e.seq))).to.deep.equal([[1]]);
    caller('second');
    caller('third');
    await tick();
    expect(s.signals, 'nothing more while the first signal is on its way').to.have.length(1);
    s.release();
    await tick();
    expect(s.signals.map((x) => x.map((e) => [e.seq, e.type === 'caller' ? e.text : e.type]))).to.deep.equal([
      [[1, 'first']],
      [
        [2, 'second'],
        [3, 'third'],
      ],
    ]);
    s.release();
    await tick();
    expect(s.signals, 'no empty signal after them').to.have.length(2);
    await s.stop();
  });

  describe('function calls the session runs itself', () => {
    /** A runner of `lookup_order` whose calls the test answers (`answer`), each kept with its key. */
    function runner() {
      const runs: { callId: string; key: string; answer: (o: ToolCallOutcome) => void }[] = [];
      const tools: SidebandToolRunner = {
        runnable: new Set(['lookup_order']),
        keysFrom: 3,
        key: (rank, modelId) => `tc_${rank}_${modelId}`,
        run: (call, key) => new Promise((answer) => runs.push({ callId: call.id, key, answer })),
      };
      return { tools, runs };
    }
    const answer = (id: string, status: string, calls: { call_id: string; name: string }[]) => ({
      type: 'response.done',
      response: {
        id,
        status,
        output: calls.map((c, i) => ({ type: 'function_call', id: `f${i}`, arguments: '{}', ...c })),
      },
    });
    const outputsOf = (socket: ScriptedSocket) =>
      socket.sent.filter((e) => e.type === 'conversation.item.create').map((e: any) => e.item);

    it("runs a completed answer's call once its signal is accepted, sends the output at once, then tells it", async () => {
      const { tools, runs } = runner();
      const s = session(tools);
      s.socket.serverSays({ type: 'response.created', response: { id: 'r1' } });
      s.socket.serverSays(answer('r1', 'completed', [{ call_id: 'call_1', name: 'lookup_order' }]));
      await tick();
      expect(s.signals[0][0]).to.deep.include({ type: 'function_calls', sidebandKeys: ['tc_3_call_1'] });
      expect(runs, 'nothing runs before the workflow has the signal').to.have.length(0);
      s.release();
      await tick();
      expect(runs.map((r) => [r.callId, r.key])).to.deep.equal([['call_1', 'tc_3_call_1']]);
      runs[0].answer({ ok: true, text: '{"status":"shipped"}', status: 200, durationMs: 40 });
      await tick();
      expect(outputsOf(s.socket)).to.deep.equal([
        { id: 'svc1_1', type: 'function_call_output', call_id: 'call_1', output: '{"status":"shipped"}' },
      ]);
      expect(s.socket.sent.at(-1)?.type).to.equal('response.create');
      expect(s.signals[1]).to.have.length(1);
      expect(s.signals[1][0]).to.deep.include({
        type: 'tool_results',
        responseId: 'r1',
        sent: 1,
        results: [
          { callId: 'call_1', key: 'tc_3_call_1', ok: true, text: '{"status":"shipped"}', status: 200, durationMs: 40 },
        ],
      });
      expect(runs, 'run once').to.have.length(1);
      await s.stop();
    });

    it("runs nothing of an interrupted answer, a cancelled one, or one with a call that isn't its own", async () => {
      /** A fresh session that hears `events` and the answer; what it told of the calls, and what ran. */
      const told = async (events: Record<string, unknown>[], done: Record<string, unknown>) => {
        const { tools, runs } = runner();
        const s = session(tools);
        s.socket.serverSays({ type: 'response.created', response: { id: 'r1' } });
        for (const e of events) s.socket.serverSays(e);
        s.socket.serverSays(done);
        for (let i = 0; i < 3; i++) {
          s.release();
          await tick();
        }
        const calls = s.signals.flat().find((e) => e.type === 'function_calls') as any;
        const result = {
          interrupted: calls.interrupted,
          keys: calls.sidebandKeys,
          ran: runs.length,
          out: outputsOf(s.socket).length,
        };
        await s.stop();
        return result;
      };
      const lookup = [{ call_id: 'call_1', name: 'lookup_order' }];
      const speech = { type: 'input_audio_buffer.speech_started', audio_start_ms: 0, item_id: 'i1' };
      expect(await told([speech], answer('r1', 'completed', lookup)), 'the caller talked over it').to.deep.equal({
        interrupted: true,
        keys: undefined,
        ran: 0,
        out: 0,
      });
      expect(await told([], answer('r1', 'cancelled', lookup)), 'cancelled').to.deep.equal({
        interrupted: true,
        keys: undefined,
        ran: 0,
        out: 0,
      });
      expect(await told([], answer('r1', 'incomplete', lookup)), 'cut short').to.deep.equal({
        interrupted: false,
        keys: undefined,
        ran: 0,
        out: 0,
      });
      const withEnd = [...lookup, { call_id: 'call_2', name: 'end_call' }];
      expect(await told([], answer('r1', 'completed', withEnd)), 'with end_call').to.deep.equal({
        interrupted: false,
        keys: undefined,
        ran: 0,
        out: 0,
      });
      expect(await told([], answer('r1', 'completed', lookup)), 'the same answer, whole and its own').to.deep.include({
        interrupted: false,
        keys: ['tc_3_call_1'],
        ran: 1,
      });
    });
  });
});
