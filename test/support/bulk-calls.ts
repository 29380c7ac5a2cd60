/**
 * Helpers for bulk campaign tests, the crash test, the history recorder and the benchmark: a form, a
 * campaign started through the API, polling until it is over, every result and every call of a campaign.
 */
import { request } from './harness';

/** A form with a required boolean, a number and an enum (the fields the tests' scripts fill). */
export async function createForm(key: string): Promise<string> {
  const res = await request('POST', '/v1/forms', {
    key,
    body: {
      name: 'RSVP',
      fields: [
        { key: 'attending', type: 'boolean', required: true, description: 'whether they come' },
        { key: 'party_size', type: 'number', description: 'how many people' },
        { key: 'slot', type: 'enum', options: ['morning', 'afternoon'] },
        { key: 'visit_date', type: 'date' },
      ],
    },
  });
  if (res.status !== 200) throw new Error(`form creation failed: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Starts a campaign; throws unless the API answers 200. */
export async function startCampaign(
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<any> {
  const res = await request('POST', '/v1/bulk-calls', { key, body, headers });
  if (res.status !== 200) throw new Error(`campaign creation failed (${res.status}): ${JSON.stringify(res.body)}`);
  return res.body;
}

export const campaignOver = (c: { status: string; completed_at: number | null }) =>
  (c.status === 'completed' || c.status === 'canceled') && c.completed_at !== null;

/** Polls `GET /v1/bulk-calls/{id}` until `until` holds (default: over), or throws after `timeoutMs`. */
export async function waitForCampaign(
  key: string,
  id: string,
  until: (c: any) => boolean = campaignOver,
  timeoutMs = 60_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request('GET', `/v1/bulk-calls/${id}`, { key });
    if (res.status === 200 && until(res.body)) return res.body;
    if (Date.now() > deadline)
      throw new Error(`campaign ${id} did not reach the expected state; last: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every result of a campaign, in contact order (pages of 100). */
export async function allResults(key: string, id: string): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await request(
      'GET',
      `/v1/bulk-calls/${id}/results?limit=100${after ? `&starting_after=${after}` : ''}`,
      { key },
    );
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    out.push(...res.body.data);
    if (!res.body.has_more) return out;
    after = res.body.data[res.body.data.length - 1].id;
  }
}

/** Every call of a campaign (`GET /v1/calls?bulk_call_id=`), newest first. */
export async function campaignCalls(key: string, id: string): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await request(
      'GET',
      `/v1/calls?bulk_call_id=${id}&limit=100${after ? `&starting_after=${after}` : ''}`,
      { key },
    );
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    out.push(...res.body.data);
    if (!res.body.has_more) return out;
    after = res.body.data[res.body.data.length - 1].id;
  }
}

/** The E.164 numbers +1 415 555 01xx… distinct per `i` (valid US numbers). */
export const phone = (i: number) => `+1415555${String(1000 + i).padStart(4, '0')}`;
