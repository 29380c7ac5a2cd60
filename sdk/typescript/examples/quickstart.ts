/**
 * The TypeScript SDK's quickstart, as a new user writes it against the installed package (npm install
 * svc-assistant-sdk), compiled with `tsc --strict`. Run by test/integration/sdk-typescript.test.ts from a
 * new npm project outside the repository, against the service the test harness starts.
 *
 *   SVC_BASE_URL=… SVC_API_KEY=svc_sk_test_… SVC_WEBHOOK_URL=https://… node quickstart.js flow
 *     an agent, a webhook endpoint, two test calls polled to `completed`, a transcript, a call's event
 *     stream, the calls list read page by page, a 422 caught as a typed error; prints one JSON line (with
 *     the endpoint's secret)
 *   SVC_PAYLOAD=… SVC_SIGNATURE=… SVC_SECRET=… node quickstart.js verify
 *     a webhook delivery verified with `Svc.webhooks.constructEvent` and read by its type, a forged one
 *     refused, an event type newer than this SDK returned as an unknown event; prints one JSON line
 */
import { InvalidRequestError, SignatureVerificationError, Svc, type Schemas, type SvcEvent } from 'svc-assistant-sdk';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a call until it is over (a final status), every 250 ms, for at most 3 minutes. */
async function pollUntilOver(svc: Svc, id: string): Promise<Schemas['Call']> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const call = await svc.calls.retrieve(id);
    if (['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'].includes(call.status)) return call;
    if (Date.now() > deadline) throw new Error(`call ${id} is still ${call.status}`);
    await sleep(250);
  }
}

async function flow(): Promise<void> {
  const svc = new Svc({ apiKey: env('SVC_API_KEY'), baseUrl: env('SVC_BASE_URL') });
  const agent = await svc.agents.create({ name: 'Quickstart agent', instructions: 'You confirm appointments.' });
  const endpoint = await svc.webhookEndpoints.create({ url: env('SVC_WEBHOOK_URL'), events: ['call.ended'] });

  const placed: Schemas['Call'][] = [];
  for (const n of [1, 2])
    placed.push(
      await svc.calls.create({
        to: `+1415555${7300 + n}`,
        agent_id: agent.id,
        metadata: { sample: 'quickstart', n: String(n) },
        simulation: { caller: ['Hi, is my appointment at ten?', 'Thanks, bye.'] },
      }),
    );
  const ended = await Promise.all(placed.map((call) => pollUntilOver(svc, call.id)));

  const transcript = await svc.calls.transcript(placed[0].id);
  const lines = transcript.turns.map((turn) => turn.text);

  // A call's event stream from its start: status changes and turns as they happened, then `end`.
  const streamed: string[] = [];
  for await (const e of svc.calls.stream(placed[0].id)) {
    streamed.push(e.event === 'turn' ? `turn:${e.data.text}` : `${e.event}:${e.data.status}`);
  }

  const firstPage = await svc.calls.list({ limit: 1 });
  const paged: string[] = [];
  for await (const call of svc.calls.list({ limit: 1 })) paged.push(call.id);

  let error: { class: string; status: number; code: string; param?: string; request_id?: string } | undefined;
  try {
    await svc.messages.send({ channel: 'whatsapp', to: '+14155557399', text: 'Hello out of the blue' });
  } catch (e) {
    if (!(e instanceof InvalidRequestError)) throw e;
    error = { class: e.constructor.name, status: e.statusCode, code: e.code, param: e.param, request_id: e.requestId };
  }

  console.log(
    JSON.stringify({
      agent_id: agent.id,
      call_ids: placed.map((call) => call.id),
      statuses: ended.map((call) => call.status),
      metadata: ended[0].metadata,
      transcript_lines: lines,
      streamed,
      first_page: { count: firstPage.data.length, has_more: firstPage.has_more },
      paged_ids: paged,
      error,
      webhook_secret: endpoint.secret,
    }),
  );
}

/** What a webhook handler does with the raw body: verify, then switch on the event's type. */
function describe(event: SvcEvent): string {
  switch (event.type) {
    case 'call.ended':
      return `call ${event.data.object.id} ended: ${event.data.object.status}`;
    case 'message.received':
      return `message ${event.data.object.id}`;
    default:
      return `event ${event.id} of type ${event.type}`;
  }
}

function verify(): void {
  const payload = env('SVC_PAYLOAD');
  const secret = env('SVC_SECRET');
  const event = Svc.webhooks.constructEvent(payload, env('SVC_SIGNATURE'), secret);
  const callId = event.type === 'call.ended' ? event.data.object.id : undefined;

  let forgedRefused = false;
  try {
    Svc.webhooks.constructEvent(payload, Svc.webhooks.signatureHeader(payload, 'whsec_not_the_secret'), secret);
  } catch (e) {
    forgedRefused = e instanceof SignatureVerificationError;
  }

  const newer = JSON.stringify({ ...JSON.parse(payload), type: 'call.teleported' });
  const unknown = Svc.webhooks.constructEvent(newer, Svc.webhooks.signatureHeader(newer, secret), secret);

  console.log(
    JSON.stringify({
      id: event.id,
      type: event.type,
      call_id: callId,
      described: describe(event),
      forged_refused: forgedRefused,
      unknown: { type: unknown.type, known: Svc.webhooks.isKnownEvent(unknown), described: describe(unknown) },
    }),
  );
}

const command = process.argv[2];
(command === 'verify' ? Promise.resolve().then(verify) : flow()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
