/**
 * Replays in the staff console, in a real browser (headless Chromium, test/support/browser.ts) against the
 * harness's API and the loopback LLM (a line naming a discount is answered with one unless the
 * instructions say "never offer a discount"): two recorded calls, one asking for a discount, replayed in
 * `turn` mode against a draft that never offers one. From the agent's page to its replays and the replay:
 * the changed turn shows the original and the replayed answer side by side, the unchanged turns and the
 * unchanged call stay hidden until "Changed only" is switched off, and the totals and progress are the API's.
 */
import { expect } from 'chai';
import { consoleAdmin } from '../support/console-pages';
import { h, request, waitForCall } from '../support/harness';
import { eventually } from '../support/webhooks';

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

describe('replays in the staff console', function () {
  this.timeout(180_000);
  const { state, post, signedInPage } = consoleAdmin({ instructions: 'You sell shoes. Offer the spring discount.' });

  it('shows a finished turn replay side by side, filtered to changes, with its totals', async () => {
    const scripts = [
      ['Hello there.', 'Is there a discount for me?', 'Thanks, bye.'],
      ['When do you open?', 'Thanks.'],
    ];
    const callIds: string[] = [];
    for (const [i, lines] of scripts.entries())
      callIds.push(
        (
          await post('/v1/calls', {
            to: `+1415555030${i}`,
            agent_id: state.tenant.agentId,
            simulation: { caller: lines },
          })
        ).id,
      );
    for (const id of callIds) expect((await waitForCall(state.tenant.testKey, id)).status).to.equal('completed');
    const draft = await post(`/v1/agents/${state.tenant.agentId}`, {
      instructions: 'You sell shoes. Never offer a discount.',
      publish: false,
    });
    const created = await post(`/v1/agents/${state.tenant.agentId}/replays`, {
      version: draft.latest_version,
      call_ids: callIds,
    });
    const replay = await eventually(
      async () => {
        const res = await request('GET', `/v1/agents/${state.tenant.agentId}/replays/${created.id}`, {
          key: state.tenant.testKey,
        });
        return res.body.status === 'completed' ? res.body : undefined;
      },
      'replay completed',
      90_000,
    );
    // What the page must show: one changed turn (the discount), in the first call; the second call unchanged.
    expect(replay.totals).to.include({ calls_changed: 1, turns_changed: 1 });
    expect(replay.totals.turns).to.be.greaterThan(2);
    const [changedCall, sameCall] = replay.calls;
    expect(changedCall.changed).to.equal(true);
    expect(sameCall.changed).to.equal(false);

    const { page, problems } = await signedInPage(state.admin.email, 1440);
    await page.goto(`${h().api.url}/console/agents/${state.tenant.agentId}`);
    await page.click('[data-testid=agent-replays]');
    await page.waitForSelector(`tr[data-replay="${replay.id}"]`);
    const row = text(await page.textContent(`tr[data-replay="${replay.id}"]`));
    expect(row).to.include(`v${draft.latest_version}`).and.include('turn').and.include('completed');
    await page.click(`tr[data-replay="${replay.id}"] a`);
    await page.waitForSelector('[data-testid=replay-totals]');
    expect(page.url()).to.equal(`${h().api.url}/console/agents/${state.tenant.agentId}/replays/${replay.id}`);

    // Changed only (the default): the one changed turn, original | replayed; nothing else.
    expect(await page.isChecked('#changed-only')).to.equal(true);
    const shownRows = () =>
      page.$$eval('.replay-turns tbody tr', (rows) =>
        rows.map((r) => ({
          call: r.closest('[data-call]')?.getAttribute('data-call'),
          changed: r.getAttribute('data-changed'),
          original: r.querySelector('td.original .said')?.textContent ?? null,
          replayed: r.querySelector('td.replayed .said')?.textContent ?? null,
        })),
      );
    const changedTurn = changedCall.turns.find((x: any) => x.changed);
    expect(await shownRows()).to.deep.equal([
      {
        call: changedCall.call_id,
        changed: 'true',
        original: 'Good news: you get 10% off today.',
        replayed: 'Sorry, we have no discounts.',
      },
    ]);
    expect(changedTurn.original.text).to.equal('Good news: you get 10% off today.');
    expect(await page.$(`[data-call="${sameCall.call_id}"]`), 'the unchanged call is hidden').to.equal(null);
    expect(text(await page.textContent('[data-testid=calls-hidden]'))).to.equal('1 unchanged call hidden');
    const hiddenTurns = changedCall.turns.length - 1;
    expect(text(await page.textContent(`[data-call="${changedCall.call_id}"] [data-testid=turns-hidden]`))).to.equal(
      `${hiddenTurns} unchanged ${hiddenTurns === 1 ? 'turn' : 'turns'} hidden`,
    );
    expect(text(await page.textContent(`[data-call="${changedCall.call_id}"] [data-summary=turns_changed]`))).to.equal(
      `1 / ${changedCall.turns.length}`,
    );

    // The totals and the progress, as the API gives them.
    const total = async (key: string) =>
      text(await page.textContent(`[data-testid=replay-totals] [data-total=${key}]`));
    expect(await total('calls_changed')).to.equal('1');
    expect(await total('turns_changed')).to.equal('1');
    expect(await total('turns')).to.equal(String(replay.totals.turns));
    expect(await total('tool_calls_added')).to.equal('0');
    const sides = async (label: string) =>
      page.$eval(`[data-total-row="${label}"]`, (r) => [
        r.querySelector('td.original')?.textContent,
        r.querySelector('td.replayed')?.textContent,
      ]);
    expect(await sides('Prompt tokens')).to.deep.equal([
      String(replay.totals.original.tokens.prompt),
      String(replay.totals.replayed.tokens.prompt),
    ]);
    expect(await sides('Characters said')).to.deep.equal([
      String(replay.totals.original.chars),
      String(replay.totals.replayed.chars),
    ]);
    expect(text(await page.textContent('[data-testid=replay-progress]'))).to.match(
      /^2 \/ 2 calls replayed \(2 completed,/,
    );

    // Switched off: every turn of both calls, the unchanged ones the same on both sides.
    await page.uncheck('#changed-only');
    await page.waitForSelector(`[data-call="${sameCall.call_id}"]`);
    const all = await shownRows();
    expect(all).to.have.length(replay.totals.turns);
    expect(all.filter((r) => r.changed === 'true')).to.have.length(1);
    for (const r of all.filter((x) => x.changed === 'false')) expect(r.replayed).to.equal(r.original);
    const expected = replay.calls.flatMap((c: any) =>
      c.turns.map((x: any) => ({
        call: c.call_id,
        original: x.original.text ?? '(nothing said)',
        replayed: x.replayed.text ?? '(nothing said)',
      })),
    );
    expect(all.map((r) => ({ call: r.call, original: r.original, replayed: r.replayed }))).to.deep.equal(expected);
    expect(await page.$('[data-testid=calls-hidden]')).to.equal(null);
    await page.check('#changed-only');
    expect(await shownRows()).to.have.length(1);
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });
});
