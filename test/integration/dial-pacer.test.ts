/**
 * The dialing pacer (src/services/dial-pace.ts): every live dial waits for its turn of the Twilio
 * account's calls per second, whichever process dials it. Two worker processes of their own dial live
 * calls to the loopback fake Twilio, whose clock (`AtMs`, when each Calls create came) is the judge: at 1
 * call per second (Twilio's default CPS, https://www.twilio.com/docs/glossary/cps) no two creates come
 * within one second of each other, whether the calls were placed through the API at once, by a campaign,
 * or while one of the processes was SIGKILLed with dials waiting for their turn (none lost, none doubled).
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { setOrgCallLimit } from '../../src/services/limits';
import { createForm, phone, startCampaign } from '../support/bulk-calls';
import { legStatus, useFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/**
 * `n` numbers of one zone whose calling window (US 08–21, others 09–20) is open now and for the next hour,
 * by `Intl` (a campaign dials a contact only inside its window).
 */
function openNumbers(n: number): string[] {
  const candidates: [string, string, number, number][] = [
    ['+1212555', 'America/New_York', 8, 21],
    ['+1415555', 'America/Los_Angeles', 8, 21],
    ['+4930123', 'Europe/Berlin', 9, 20],
    ['+8131234', 'Asia/Tokyo', 9, 20],
    ['+6129123', 'Australia/Sydney', 9, 20],
  ];
  const hour = (ms: number, tz: string) =>
    Number(new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(ms));
  for (const [prefix, tz, open, close] of candidates) {
    const now = hour(Date.now(), tz);
    if (now >= open && now < close - 1) return Array.from({ length: n }, (_, i) => `${prefix}${4100 + i}`);
  }
  throw new Error('no candidate zone is inside its calling hours now');
}

/** The most creates within any one-second window (a window starting at each create). */
function mostInOneSecond(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while (s[i] - s[j] >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** The smallest gap between two consecutive creates (ms). */
function smallestGap(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  return Math.min(...s.slice(1).map((t, i) => t - s[i]));
}

/** The fake's creates of these calls' own dials (`Url` …/twilio/voice/<call id>). */
function createsOf(fake: FakeTwilio, ids: string[]): Record<string, string>[] {
  const mine = new Set(ids);
  return fake.created.filter((c) => mine.has(c.Url?.split('/twilio/voice/')[1] ?? ''));
}

/** Waits until the fake has `n` creates of these calls (or throws after `timeoutMs`). */
async function waitForCreates(fake: FakeTwilio, ids: string[], n: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (createsOf(fake, ids).length < n) {
    if (Date.now() > deadline) throw new Error(`only ${createsOf(fake, ids).length} of ${n} calls dialed`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return createsOf(fake, ids);
}

/** Ends every call the fake created for these ids: Twilio's `no-answer` status callback. */
async function hangUpAll(fake: FakeTwilio, ids: string[]) {
  for (const c of createsOf(fake, ids)) await legStatus(fake, c.Sid, 'no-answer');
}

/** The worker identities that ran these calls' `placeCall`, and the highest attempt it took. */
async function placeCallRuns(ids: string[]): Promise<{ identities: Set<string>; maxAttempt: number }> {
  const identities = new Set<string>();
  let maxAttempt = 0;
  for (const id of ids) {
    const history = await h().env.client.workflow.getHandle(id).fetchHistory();
    const scheduled = new Map<string, string>();
    for (const e of history.events ?? []) {
      const s = e.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(String(e.eventId), s.activityType?.name ?? '');
      const started = e.activityTaskStartedEventAttributes;
      if (started && scheduled.get(String(started.scheduledEventId)) === 'placeCall') {
        identities.add(started.identity ?? '');
        maxAttempt = Math.max(maxAttempt, started.attempt ?? 0);
      }
    }
  }
  return { identities, maxAttempt };
}

describe('the dialing pacer: live dials at the account’s calls per second, across processes', function () {
  this.timeout(240_000);
  let fake: FakeTwilio;
  let restoreTwilio: () => Promise<void>;
  let workers: ChildProcess[] = [];
  let savedQueue: string;
  let t: Tenant;
  let agentId: string;

  /** Starts a worker process on the file's queue, pointed at the fake Twilio. */
  const startWorker = (queue: string) =>
    startWorkerProcess(queue, {
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_API_BASE_URL: fake.url,
      PUBLIC_BASE_URL: h().api.url,
    });

  beforeEach(async () => {
    ({ fake, restore: restoreTwilio } = await useFakeTwilio()); // a fresh account SID: its own turns
    const queue = `svc-test-pacer-${crypto.randomBytes(4).toString('hex')}`;
    savedQueue = config().taskQueue;
    setConfig({ ...config(), taskQueue: queue }); // calls placed now run on the worker processes' queue only
    workers = [await startWorker(queue), await startWorker(queue)];
    t = await newTenant();
    await setOrgCallLimit(t.orgId, 'live', 100); // the concurrency limit is not what spaces the dials here
    const agent = await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Live', instructions: 'Hi.' } });
    expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
    agentId = agent.body.id;
    await verifiedCallerId(fake, t.liveKey); // a live call's `from` must be the organization's own
  });
  afterEach(async () => {
    for (const w of workers) await stopWorkerProcess(w, 'SIGTERM');
    setConfig({ ...config(), taskQueue: savedQueue });
    await restoreTwilio();
  });

  /** Places `n` live calls through the API at once; their ids. */
  async function placeAtOnce(n: number): Promise<string[]> {
    return await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await request('POST', '/v1/calls', {
          key: t.liveKey,
          body: { to: phone(100 + i), from: '+14155550100', agent_id: agentId },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.id as string;
      }),
    );
  }

  it('two processes dialing 30 calls at 1 call per second: never two creates within a second at Twilio', async () => {
    const ids = await placeAtOnce(30);
    const creates = await waitForCreates(fake, ids, 30, 90_000);
    const times = creates.map((c) => Number(c.AtMs));
    expect(mostInOneSecond(times), `smallest gap ${smallestGap(times)} ms`).to.equal(1);
    // The pace is the account's (1 CPS with the pacer's 20% margin), not slower by much either.
    const spanMs = Math.max(...times) - Math.min(...times);
    expect(spanMs).to.be.within(29 * 1000, 29 * 1200 + 10_000);
    expect(new Set(creates.map((c) => c.Url)).size, 'each call dialed once').to.equal(30);
    const runs = await placeCallRuns(ids.slice(0, 30));
    expect(runs.identities.size, 'dialed by both processes').to.equal(2);
    await hangUpAll(fake, ids);
    for (const id of ids) await waitForCall(t.liveKey, id, (c) => c.status === 'no_answer', 30_000);
    const account = await request('GET', '/v1/account', { key: t.liveKey });
    expect(account.body.limits, 'the pace shown in the account').to.include({ calls_per_second: 1 });
  });

  it('a campaign is paced by the pacer: its window of calls is dialed one per second', async () => {
    const formId = await createForm(t.liveKey);
    const contacts = openNumbers(8);
    // A live organization may dial only its own numbers' countries (US here) unless it lists more; the
    // zone open now may be Berlin's, Tokyo's or Sydney's.
    const allow = await request('POST', '/v1/account', {
      key: t.liveKey,
      body: { dialing_permissions: { allowed_countries: ['US', 'DE', 'JP', 'AU'] } },
    });
    expect(allow.status, JSON.stringify(allow.body)).to.equal(200);
    const campaign = await startCampaign(t.liveKey, {
      agent_id: agentId,
      form_id: formId,
      from: '+14155550100',
      max_concurrency: 8,
      contacts,
    });
    const deadline = Date.now() + 60_000;
    const campaignCreates = () => fake.created.filter((c) => contacts.includes(c.To));
    while (campaignCreates().length < 8) {
      if (Date.now() > deadline) throw new Error(`only ${campaignCreates().length} campaign calls dialed`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const creates = campaignCreates();
    const times = creates.map((c) => Number(c.AtMs));
    expect(mostInOneSecond(times), `smallest gap ${smallestGap(times)} ms`).to.equal(1);
    expect(new Set(creates.map((c) => c.To)).size, 'each contact dialed once').to.equal(8);
    for (const c of creates) await legStatus(fake, c.Sid, 'no-answer');
    const cancel = await request('POST', `/v1/bulk-calls/${campaign.id}/cancel`, { key: t.liveKey });
    expect(cancel.status, JSON.stringify(cancel.body)).to.be.oneOf([200, 409]);
  });

  it('a process SIGKILLed while dials wait for their turn: no call lost, none doubled, the pace kept', async () => {
    const ids = await placeAtOnce(10);
    // The ten turns span 11 s: most dials now wait inside their activities, on both processes.
    await waitForCreates(fake, ids, 2, 30_000);
    await stopWorkerProcess(workers[0], 'SIGKILL');
    // The killed process's waiting dials are retried on the other once their 30 s start-to-close passes.
    const creates = await waitForCreates(fake, ids, 10, 120_000);
    await new Promise((r) => setTimeout(r, 3000)); // a second create of any call would come meanwhile
    const all = createsOf(fake, ids);
    expect(all.length, 'no call dialed twice').to.equal(10);
    expect(new Set(all.map((c) => c.Url)).size, 'every call dialed').to.equal(10);
    const times = creates.map((c) => Number(c.AtMs));
    expect(mostInOneSecond(times), `smallest gap ${smallestGap(times)} ms`).to.equal(1);
    expect((await placeCallRuns(ids)).maxAttempt, 'a dial was retried after the kill').to.be.at.least(2);
    await hangUpAll(fake, ids);
    for (const id of ids) await waitForCall(t.liveKey, id, (c) => c.status === 'no_answer', 30_000);
  });
});
