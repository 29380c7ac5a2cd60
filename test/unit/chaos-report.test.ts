/**
 * The chaos bench's counting (bench/chaos-report.ts) on hand-made records: lost keys, duplicated calls and
 * events, duplicated deliveries told apart from documented redeliveries, 5xx and transport failures,
 * recovery, and the table. The bench itself runs by hand (`npm run bench:chaos`).
 */
import { expect } from 'chai';
import {
  faultRow,
  recoverySeconds,
  renderTable,
  splitRepeats,
  type FaultRecord,
  type KeyRecord,
} from '../../bench/chaos-report';

const T = 1_000_000;

/** A key answered 200 at `atMs` (after the given earlier answers). */
const key = (k: string, callId: string | undefined, answers: KeyRecord['answers']): KeyRecord => ({
  key: k,
  callId,
  answers,
});

function record(over: Partial<FaultRecord> = {}): FaultRecord {
  return {
    fault: 'api',
    downS: 5,
    keys: [
      key('k1', 'call_1', [{ sentMs: T, atMs: T + 50, status: 200 }]),
      key('k2', 'call_2', [
        { sentMs: T + 100, atMs: T + 110, error: 'ECONNREFUSED' },
        { sentMs: T + 5000, atMs: T + 5200, status: 503, error: 'service_unavailable' },
        { sentMs: T + 9000, atMs: T + 9400, status: 200 },
      ]),
      key('k3', undefined, [{ sentMs: T + 200, atMs: T + 20_200, error: 'timeout' }]),
    ],
    calls: [
      { id: 'call_1', status: 'completed', key: 'k1' },
      { id: 'call_2', status: 'failed', key: 'k2' },
      { id: 'call_2b', status: 'in_progress', key: 'k2' },
      { id: 'call_x', status: 'completed', key: 'someone-else' },
    ],
    events: [
      { id: 'evt_1s', type: 'call.started', callId: 'call_1' },
      { id: 'evt_1e', type: 'call.ended', callId: 'call_1' },
      { id: 'evt_1e2', type: 'call.ended', callId: 'call_1' },
      { id: 'evt_2e', type: 'call.ended', callId: 'call_2' },
    ],
    received: [
      { eventId: 'evt_1s', status: 200, atMs: T + 1000 },
      { eventId: 'evt_1e', status: 200, atMs: T + 2000 },
      { eventId: 'evt_1e', status: 200, atMs: T + 9000 },
      { eventId: 'evt_1e2', status: 200, atMs: T + 9500 },
    ],
    attempts: [
      { eventId: 'evt_1s', succeeded: true },
      { eventId: 'evt_1e', succeeded: true },
      { eventId: 'evt_1e2', succeeded: true },
    ],
    restartMs: T + 8000,
    recoveredBy: 'answer',
    caughtUpMs: T + 30_000,
    load: 3.14,
    ...over,
  };
}

describe('chaos bench counting (bench/chaos-report.ts)', () => {
  it('counts lost keys, duplicated calls and events, failed and unfinished calls, 5xx and refused', () => {
    const row = faultRow(record());
    expect(row).to.include({
      fault: 'api',
      keys: 3,
      calls: 3, // another key's call is not this burst's
      lost: 1, // k3: no call
      duplicatedCalls: 1, // k2: two calls
      failedCalls: 1,
      unfinishedCalls: 1,
      answers5xx: 1,
      answers503: 1,
      refused: 2, // ECONNREFUSED and a timeout
      duplicatedEvents: 1, // two call.ended for call_1
      undelivered: 1, // evt_2e
      recoveryS: 1.4, // the 200 sent at +9.0 s, answered at +9.4 s, 8 s being the restart
      caughtUpS: 22,
      load: 3.1,
    });
  });

  it('tells a delivery the service knew it had made and made again from the documented redelivery', () => {
    // evt_a: answered twice, logged succeeded once: the second is a crash between the 2xx and its record.
    // evt_b: answered twice, logged succeeded twice: a duplicated delivery.
    // evt_c: answered three times, logged once: two redeliveries. evt_d: answered 500 then 200.
    const received = [
      ...['evt_a', 'evt_a', 'evt_b', 'evt_b', 'evt_c', 'evt_c', 'evt_c'].map((eventId) => ({
        eventId,
        status: 200,
        atMs: T,
      })),
      { eventId: 'evt_d', status: 500, atMs: T },
      { eventId: 'evt_d', status: 200, atMs: T },
    ];
    const attempts = [
      { eventId: 'evt_a', succeeded: true },
      { eventId: 'evt_b', succeeded: true },
      { eventId: 'evt_b', succeeded: true },
      { eventId: 'evt_c', succeeded: true },
      { eventId: 'evt_d', succeeded: false },
      { eventId: 'evt_d', succeeded: true },
    ];
    expect(splitRepeats(received, attempts)).to.deep.equal({ duplicated: 1, redelivered: 3 });
    const row = faultRow(record({ received, attempts, events: [] }));
    expect(row).to.include({ duplicatedDeliveries: 1, redelivered: 3, undelivered: 0 });
  });

  it('measures recovery by the first webhook after the restart when the client does not see the fault', () => {
    const r = record({ recoveredBy: 'delivery', restartMs: T + 3000 });
    expect(recoverySeconds(r)).to.equal(6); // evt_1e's second delivery at +9 s
    expect(recoverySeconds(record({ restartMs: null }))).to.equal(null);
    expect(recoverySeconds(record({ restartMs: T + 60_000 }))).to.equal(null);
  });

  it('a fault-free burst is all zeros, and the table has a header and one line per fault', () => {
    const clean = record({
      fault: 'none',
      downS: null,
      keys: [key('k1', 'call_1', [{ sentMs: T, atMs: T + 50, status: 200 }])],
      calls: [{ id: 'call_1', status: 'completed', key: 'k1' }],
      events: [
        { id: 'evt_1s', type: 'call.started', callId: 'call_1' },
        { id: 'evt_1e', type: 'call.ended', callId: 'call_1' },
      ],
      received: [
        { eventId: 'evt_1s', status: 200, atMs: T },
        { eventId: 'evt_1e', status: 200, atMs: T },
      ],
      attempts: [],
      restartMs: null,
    });
    const row = faultRow(clean);
    for (const k of [
      'lost',
      'duplicatedCalls',
      'failedCalls',
      'unfinishedCalls',
      'answers5xx',
      'answers503',
      'refused',
      'duplicatedEvents',
      'undelivered',
      'duplicatedDeliveries',
      'redelivered',
    ] as const)
      expect(row[k], k).to.equal(0);
    const table = renderTable([row, faultRow(record())]).split('\n');
    expect(table).to.have.length(4);
    expect(table[0]).to.match(/^\| fault \| down s \| keys \| calls \| lost \| dup calls \|/);
    expect(table[2]).to.match(/^\| none \| – \| 1 \| 1 \| 0 \|/);
    expect(table[3]).to.match(/^\| api \| 5 \| 3 \| 3 \| 1 \| 1 \|/);
  });
});
