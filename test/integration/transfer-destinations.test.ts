/**
 * Transfers that cannot be turned into toll fraud: an agent's `transfer_destinations` are the only places
 * the model's `transfer_call` can name (an enum in its schema; anything else is a tool error, never a
 * transfer), and every dial and transfer passes the organization's dialing permissions (the dial gate's
 * `dialing_permissions` rule: countries, high-cost number types the operator allows with `svcctl`, SIP
 * domains), answered 400 `destination_not_allowed` by the API. Simulated calls with the fake LLM (its
 * `TOOL <name> <json>` lines make the model call a tool) and svcctl run as the operator runs it.
 */
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PhoneNumber } from '../../src/models/conversations';
import { h, newTenant, request, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const SVCCTL = path.resolve(__dirname, '../../../bin/svcctl.js');
/** A satellite number (Thuraya, +881 6): libphonenumber's region "001". */
const SATELLITE = '+881612345678';
/** A US premium-rate number (NPA 900). */
const PREMIUM = '+19002345678';

/** Runs svcctl against the harness's store; resolves its JSON output (throws on a non-zero exit). */
async function svcctl(...args: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)('node', [SVCCTL, ...args], {
    env: { ...process.env, MONGODB_URI: h().ferret.uri, FERRETDB_PORT: undefined },
  });
  return JSON.parse(stdout);
}

async function createAgent(t: Tenant, body: Record<string, unknown>) {
  return request('POST', '/v1/agents', {
    key: t.testKey,
    body: { name: 'Front desk', instructions: 'You answer calls.', ...body },
  });
}

async function placeCall(t: Tenant, agentId: string, caller: string[], to = '+14155550123') {
  const res = await request('POST', '/v1/calls', {
    key: t.testKey,
    body: { to, agent_id: agentId, simulation: { caller } },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

async function toolTurns(key: string, callId: string): Promise<{ text: string; tool: any }[]> {
  const res = await request('GET', `/v1/calls/${callId}/transcript`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.turns as any[]).filter((x) => x.role === 'tool');
}

async function setPermissions(t: Tenant, permissions: Record<string, unknown>) {
  const res = await request('POST', '/v1/account', { key: t.testKey, body: { dialing_permissions: permissions } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.dialing_permissions;
}

/** The tools of the LLM's first request for call `callId`. */
function offeredTools(callId: string): any[] {
  const req = h().llm.requests.find((r) => r.user === callId);
  expect(req, 'the LLM saw this call').to.exist;
  return (req!.tools ?? []) as any[];
}

describe('transfer destinations and dialing permissions', function () {
  this.timeout(120_000);

  describe("the model's transfer_call", () => {
    let t: Tenant;
    before(async () => {
      // An agent as a tenant sets one up for transfers: a default `transfer_to` the organization chose.
      t = await newTenant({ first_message: 'Hello.', transfer_to: '+14155550199' });
    });

    for (const [what, to] of [
      ['an unlisted satellite number', SATELLITE],
      ['a premium-rate number', PREMIUM],
      ['a sip: address', 'sip:anyone@evil.example'],
    ] as const)
      it(`does not transfer a caller who talks the model into ${what}: a tool error for the model`, async () => {
        const call = await placeCall(t, t.agentId, [`TOOLONCE transfer_call {"to":"${to}"}`, 'bye']);
        const ended = await waitForCall(t.testKey, call.id);
        expect(ended).to.include({ status: 'completed', end_reason: 'caller_hung_up', transferred_to: null });
        const [tool] = await toolTurns(t.testKey, call.id);
        expect(tool.tool).to.deep.equal({ name: 'transfer_call', arguments: { to } });
        expect(tool.text).to.match(/^Error: transfer_call takes only "destination".*Nobody was called\.$/);
        // The model was given the error (the next request carries it as the tool's result).
        const next = h().llm.requests.filter((r) => r.user === call.id)[1];
        expect(JSON.stringify(next.messages)).to.contain('Nobody was called.');
      });

    it("offers exactly the destinations' names as an enum, transfers to a listed one, refuses any other name", async () => {
      const agent = await createAgent(t, {
        transfer_destinations: [
          { name: 'billing', to: '+14155550111', description: 'Billing questions and refunds', warm: false },
          { name: 'sales', to: '+14155550112' },
        ],
      });
      expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
      expect(agent.body.transfer_destinations).to.deep.equal([
        { name: 'billing', to: '+14155550111', description: 'Billing questions and refunds', warm: false },
        { name: 'sales', to: '+14155550112', description: null, warm: null },
      ]);
      const refused = await placeCall(t, agent.body.id, [
        `TOOLONCE transfer_call {"destination":"${SATELLITE}"}`,
        'TOOLONCE transfer_call {"destination":"support"}',
        'bye',
      ]);
      expect(await waitForCall(t.testKey, refused.id)).to.include({ status: 'completed', transferred_to: null });
      const errors = (await toolTurns(t.testKey, refused.id)).map((x) => x.text);
      expect(errors).to.deep.equal([
        `Error: "${SATELLITE}" is not one of the organization's transfer destinations (billing, sales). Nobody was called.`,
        `Error: "support" is not one of the organization's transfer destinations (billing, sales). Nobody was called.`,
      ]);
      const transfer = offeredTools(refused.id).find((x) => x.function.name === 'transfer_call');
      expect(transfer.function.parameters).to.deep.equal({
        type: 'object',
        properties: {
          destination: {
            type: 'string',
            enum: ['billing', 'sales'],
            description: "the destination's name, one of: billing, sales",
          },
        },
        required: ['destination'],
        additionalProperties: false,
      });
      expect(transfer.function.description).to.contain('billing (Billing questions and refunds); sales');

      const listed = await placeCall(t, agent.body.id, ['TOOLONCE transfer_call {"destination":"billing"}', 'never']);
      expect(await waitForCall(t.testKey, listed.id)).to.include({
        status: 'transferred',
        end_reason: 'transferred',
        transferred_to: '+14155550111',
      });
    });

    it('does not offer transfer_call to an agent with no destination and no transfer_to', async () => {
      const agent = await createAgent(t, {});
      const call = await placeCall(t, agent.body.id, ['TOOLONCE transfer_call {}', 'bye']);
      expect(await waitForCall(t.testKey, call.id)).to.include({ status: 'completed', transferred_to: null });
      expect(offeredTools(call.id).map((x) => x.function.name)).to.not.include('transfer_call');
      const [tool] = await toolTurns(t.testKey, call.id);
      expect(tool.text).to.match(/not available/);
    });

    it('keeps the destinations in the agent version, and refuses bad ones with the param at fault', async () => {
      const agent = await createAgent(t, { transfer_destinations: [{ name: 'desk', to: '+14155550113' }] });
      const versions = await request('GET', `/v1/agents/${agent.body.id}/versions`, { key: t.testKey });
      expect(versions.body.data[0].config.transfer_destinations).to.deep.equal([
        { name: 'desk', to: '+14155550113', description: null, warm: null },
      ]);
      const cases: [unknown, string, string][] = [
        [[{ name: 'Desk!', to: '+14155550113' }], 'transfer_destinations.0.name', 'parameter_invalid'],
        [[{ name: 'desk', to: 'desk' }], 'transfer_destinations.0.to', 'parameter_invalid'],
        [[{ name: 'desk', to: 'client:alice' }], 'transfer_destinations.0.to', 'parameter_invalid'],
        [
          [
            { name: 'desk', to: '+14155550113' },
            { name: 'desk', to: '+14155550114' },
          ],
          'transfer_destinations.1.name',
          'parameter_invalid',
        ],
        [[{ name: 'sat', to: SATELLITE }], 'transfer_destinations.0.to', 'destination_not_allowed'],
        [
          [{ name: 'pbx', to: 'sip:desk@pbx.unlisted.example' }],
          'transfer_destinations.0.to',
          'destination_not_allowed',
        ],
      ];
      for (const [list, param, code] of cases) {
        const res = await request('POST', `/v1/agents/${agent.body.id}`, {
          key: t.testKey,
          body: { transfer_destinations: list },
        });
        expect(res.status, JSON.stringify(list)).to.equal(400);
        expect(res.body.error, JSON.stringify(list)).to.include({ code, param });
      }
    });
  });

  describe('dialing permissions', () => {
    let t: Tenant;
    beforeEach(async () => {
      t = await newTenant({ first_message: 'Hello.' });
    });

    it('answers 400 destination_not_allowed to a call to a country the account does not allow, naming the rule', async () => {
      const account = await request('GET', '/v1/account', { key: t.testKey });
      expect(account.body.dialing_permissions).to.deep.equal({
        allowed_countries: null,
        allowed_countries_source: 'test_mode',
        sip_domains: [],
        allowed_number_types: [],
      });
      expect(await setPermissions(t, { allowed_countries: ['US', 'CA'] })).to.deep.include({
        allowed_countries: ['CA', 'US'],
        allowed_countries_source: 'account',
      });
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+442071838750', agent_id: t.agentId, simulation: { caller: ['Hi'] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error).to.include({ code: 'destination_not_allowed', param: 'to' });
      expect(res.body.error.message).to.contain('a number of GB').and.contain('allowed_countries (CA, US;');
      // An allowed country dials, and the check is on the call.
      const ok = await placeCall(t, t.agentId, ['Hi']);
      const ended = await waitForCall(t.testKey, ok.id);
      const rule = ended.compliance.rules.find((r: any) => r.rule === 'dialing_permissions');
      expect(rule).to.include({ result: 'allowed' });
      // Back to the default.
      expect(await setPermissions(t, { allowed_countries: null })).to.include({
        allowed_countries_source: 'test_mode',
      });
    });

    it('defaults a live account to the countries of its own numbers', async () => {
      const before = await request('GET', '/v1/account', { key: t.liveKey });
      // The harness's operator default (DEFAULT_ALLOWED_COUNTRIES=US) for an organization without numbers.
      expect(before.body.dialing_permissions).to.include({ allowed_countries_source: 'operator_default' });
      expect(before.body.dialing_permissions.allowed_countries).to.deep.equal(['US']);
      await PhoneNumber.create({
        _id: `pn_perm_${t.orgId}`,
        route_key: `live:+442071838751:${t.orgId}`,
        org_id: t.orgId,
        livemode: true,
        number: '+442071838751',
        channels: ['voice'],
        created: Math.floor(Date.now() / 1000),
      });
      const after = await request('GET', '/v1/account', { key: t.liveKey });
      expect(after.body.dialing_permissions).to.include({ allowed_countries_source: 'phone_numbers' });
      expect(after.body.dialing_permissions.allowed_countries).to.deep.equal(['GB', 'US']);
    });

    it('refuses premium-rate and satellite numbers until the operator allows them with svcctl', async () => {
      for (const to of [PREMIUM, SATELLITE]) {
        const res = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to, agent_id: t.agentId, simulation: { caller: ['Hi'] } },
        });
        expect(res.status, `${to}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error).to.include({ code: 'destination_not_allowed', param: 'to' });
        expect(res.body.error.message).to.contain(to === PREMIUM ? 'premium_rate' : 'non_geographic');
      }
      const allowed = await svcctl('dialing', 'allow-number-types', '--org', t.orgId, '--types', 'premium_rate');
      expect(allowed).to.deep.equal({
        object: 'dialing_permissions',
        org: t.orgId,
        allowed_number_types: ['premium_rate'],
      });
      const premium = await placeCall(t, t.agentId, ['Hi'], PREMIUM);
      expect(await waitForCall(t.testKey, premium.id)).to.include({ status: 'completed' });
      const satellite = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: SATELLITE, agent_id: t.agentId, simulation: { caller: ['Hi'] } },
      });
      expect(satellite.status, 'still refused: only premium_rate was allowed').to.equal(400);
      const shown = await svcctl('dialing', 'get', '--org', t.orgId);
      expect(shown.test.allowed_number_types).to.deep.equal(['premium_rate']);
      await svcctl('dialing', 'allow-number-types', '--org', t.orgId, '--types', 'none');
    });

    it('transfers a call through the API only to a sip: domain the account lists; client: identities never', async () => {
      const placed = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: t.agentId,
          simulation: { caller: ['Hi', 'Still here'], pause_seconds: 30 },
        },
      });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
      const call = await waitForCall(t.testKey, placed.body.id, (c) => c.status === 'in_progress');
      const transfer = (to: string) =>
        request('POST', `/v1/calls/${call.id}/transfer`, { key: t.testKey, body: { to } });
      for (const to of ['sip:desk@pbx.example.com', 'client:alice', SATELLITE]) {
        const res = await transfer(to);
        expect(res.status, `${to}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error).to.include({ code: 'destination_not_allowed', param: 'to' });
      }
      expect((await transfer('sip:desk@pbx.example.com')).body.error.message).to.contain('sip_domains');
      await setPermissions(t, { sip_domains: ['PBX.example.com'] });
      const ok = await transfer('sip:desk@pbx.example.com');
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      expect(ok.body).to.include({ status: 'transferred', transferred_to: 'sip:desk@pbx.example.com' });
    });

    it('checks a scheduled call again when it dials: a country removed meanwhile cancels it, never dialed', async () => {
      const at = Math.floor(Date.now() / 1000) + 3600;
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, scheduled_at: at, simulation: { caller: ['Hi'] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
      await setPermissions(t, { allowed_countries: ['CA'] });
      const advanced = await request('POST', `/v1/test_helpers/calls/${res.body.id}/advance_clock`, {
        key: t.testKey,
      });
      expect(advanced.status, JSON.stringify(advanced.body)).to.equal(200);
      const ended = await waitForCall(t.testKey, res.body.id);
      expect(ended).to.include({ status: 'canceled', end_reason: 'destination_not_allowed', answered_at: null });
      expect(ended.error.message).to.contain('a number of US').and.contain('allowed_countries (CA;');
      const rule = ended.compliance.rules.find((r: any) => r.rule === 'dialing_permissions');
      expect(rule).to.include({ result: 'not_allowed', refusal: 'country_not_allowed' });
    });

    it('refuses malformed permissions with the param at fault, nothing written', async () => {
      for (const [body, param] of [
        [{ allowed_countries: ['us'] }, 'dialing_permissions.allowed_countries.0'],
        [{ allowed_countries: ['US', 'XX'] }, 'dialing_permissions.allowed_countries.1'],
        [{ sip_domains: ['not a host'] }, 'dialing_permissions.sip_domains.0'],
      ] as const) {
        const res = await request('POST', '/v1/account', { key: t.testKey, body: { dialing_permissions: body } });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.include({ code: 'parameter_invalid', param });
      }
      const account = await request('GET', '/v1/account', { key: t.testKey });
      expect(account.body.dialing_permissions).to.include({ allowed_countries_source: 'test_mode' });
    });
  });
});
