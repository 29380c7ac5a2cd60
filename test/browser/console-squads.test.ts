/**
 * Squads in the staff console, in a real browser (headless Chromium, test/support/browser.ts) against
 * the harness's API: a finished squad call's page shows the squad and version it ran and the member now,
 * names the member behind each assistant line and shows each hand-off entry; the squads page lists the
 * mode's squads with their members, first member and version.
 */
import { expect } from 'chai';
import { consoleAdmin } from '../support/console-pages';
import { customerNumber } from '../support/conversations';
import { h, request, waitForCall } from '../support/harness';

describe('squads in the staff console', function () {
  this.timeout(180_000);
  const { state, post, signedInPage } = consoleAdmin();

  it("shows a squad call's squad, version, member per assistant line and hand-offs; lists the squads", async () => {
    const front = await post('/v1/agents', { name: 'Front', instructions: 'You greet callers.' });
    const back = await post('/v1/agents', { name: 'Back', instructions: 'You handle hard questions.' });
    const squad = await post('/v1/squads', {
      name: 'Desk',
      members: [
        { name: 'front', agent_id: front.id, handoffs: [{ to: 'back', description: 'Hard.', context: 'summary' }] },
        { name: 'back', agent_id: back.id, version: 1 },
      ],
      start: 'front',
    });
    await post(`/v1/squads/${squad.id}`, { max_handoffs: 2 }); // version 2, published
    const placed = await post('/v1/calls', {
      to: customerNumber(),
      squad_id: squad.id,
      simulation: { caller: ['Hello.', 'HANDOFF back', 'Sure.'] },
    });
    const call = await waitForCall(state.tenant.testKey, placed.id);
    const turns = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: state.tenant.testKey })).body
      .turns as {
      role: string;
      agent_id?: string;
      handoff?: { summary?: string };
    }[];
    const handoff = turns.find((x) => x.role === 'handoff')!;

    const { page, problems } = await signedInPage(state.admin.email, 1440);
    await page.goto(`${h().api.url}/console/calls/${call.id}`);
    await page.waitForSelector('[data-testid=handoff]');
    expect((await page.textContent('[data-testid=call-squad]'))!.replace(/\s+/g, ' ')).to.equal(
      `Squad ${squad.id} · version 2 · member now: back`,
    );
    // Each assistant line names its member, as the turn's agent says it should.
    const shown = await page.$$eval('.transcript li[data-role=assistant]', (els) =>
      els.map((e) => [e.getAttribute('data-member'), e.querySelector('.turn-member')?.textContent ?? null]),
    );
    const expected = turns
      .filter((x) => x.role === 'assistant')
      .map((x) => (x.agent_id === back.id ? 'back' : 'front'))
      .map((m) => [m, `[${m}]`]);
    expect(shown).to.deep.equal(expected);
    expect(shown.map((x) => x[0]))
      .to.include('front')
      .and.include('back');
    expect((await page.textContent('[data-testid=handoff]'))!.replace(/\s+/g, ' ')).to.equal(
      `front → back (context: summary) — summary: ${handoff.handoff!.summary}`,
    );

    await page.click('nav a[href="/console/squads"]');
    await page.waitForSelector(`tr[data-squad="${squad.id}"]`);
    const row = (await page.textContent(`tr[data-squad="${squad.id}"]`))!.replace(/\s+/g, ' ');
    expect(row).to.include('Desk').and.include('front → back').and.include('back v1').and.include('v2');
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });
});
