/**
 * The TypeScript SDK's flow under the maintained Node.js LTS, against `npm start`'s stack (item
 * 5; run by scripts/smoke-lts.sh with the LTS's node): the demo agent listed, a test call with metadata
 * placed and waited for, the calls list read across pages, its transcript, a 422 caught as a typed error,
 * and a webhook payload verified (and a forgery refused) by `Svc.webhooks.constructEvent`.
 *
 *   node dist/test/sdk/lts-flow.js <baseUrl> <secret key> [<to>]      prints one JSON line, exits 1 on failure
 *
 * `<to>` is the number both calls ring (default +14155557501): smoke-lts.sh passes the demo's number inside
 * its calling hours now (src/dev/demo-number.ts), since a simulated call at night at the callee's local time
 * is held by the dial gate.
 */
import assert from 'node:assert/strict';
import { InvalidRequestError, SignatureVerificationError, Svc, signatureHeader } from '../../sdk/typescript/src';

async function main(): Promise<void> {
  const [baseUrl, apiKey, to = '+14155557501'] = process.argv.slice(2);
  const svc = new Svc({ apiKey, baseUrl });
  const agents = await svc.agents.list({ limit: 10 });
  assert.ok(agents.data.length > 0, 'the demo agent is listed');
  const placed = [];
  for (const n of [1, 2])
    placed.push(await svc.calls.create({ to, agent_id: agents.data[0].id, metadata: { lts: String(n) } }));
  const ended = await Promise.all(
    placed.map((c) => svc.calls.waitForEnd(c.id, { intervalMs: 500, timeoutMs: 180_000 })),
  );
  assert.deepEqual(
    ended.map((c) => c.status),
    ['completed', 'completed'],
  );
  assert.deepEqual(ended[1].metadata, { lts: '2' });
  const ids = (await svc.calls.list({ limit: 1 }).autoPagingToArray()).map((c) => c.id);
  assert.ok(
    ids.indexOf(placed[1].id) < ids.indexOf(placed[0].id) && ids.indexOf(placed[0].id) >= 0,
    'pages, newest first',
  );
  const transcript = await svc.calls.transcript(placed[0].id);
  assert.ok(JSON.stringify(transcript).length > 0);
  const refused = await svc.messages.send({ channel: 'whatsapp', to: '+14155557599', text: 'Hi' }).catch((e) => e);
  assert.ok(refused instanceof InvalidRequestError && refused.statusCode === 422, `a typed 422: ${String(refused)}`);
  const payload = JSON.stringify({ id: 'evt_lts', type: 'call.ended', data: { object: ended[0] } });
  const event = Svc.webhooks.constructEvent(payload, signatureHeader(payload, 'whsec_lts'), 'whsec_lts');
  assert.equal((event as { id: string }).id, 'evt_lts');
  assert.throws(
    () => Svc.webhooks.constructEvent(payload, signatureHeader(payload, 'whsec_other'), 'whsec_lts'),
    SignatureVerificationError,
  );
  console.log(JSON.stringify({ node: process.version, calls: placed.map((c) => c.id), error: refused.code }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
