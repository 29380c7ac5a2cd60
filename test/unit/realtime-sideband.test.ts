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
import { RealtimeSideband } from '../../src/voice/realtime-session';

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
function session() {
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
});
