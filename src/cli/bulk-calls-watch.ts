/**
 * `svcctl bulk-calls watch ID`: a campaign's progress from the store (the document its workflow mirrors
 * its progress to, src/models/bulk-calls.ts), drawn as a progress bar on stderr until the campaign is over
 * (`completed` or `canceled` with `completed_at`); then the final `bulk_call` object as JSON on stdout.
 * On a terminal the bar is redrawn in place; otherwise one line is printed per change.
 */
import { BulkCall, renderBulkCall } from '../models/bulk-calls';

type BulkCallObject = ReturnType<typeof renderBulkCall>;

/**
 * One progress line: a bar of `width` cells for the contacts with a final result, the percentage, the
 * counts by bucket and the status, e.g.
 * `[##########··········]  50% 100/200 · completed 90 · not reached 6 · failed 1 · skipped 3 · in progress 8 · pending 92 · running`.
 */
export function progressLine(c: BulkCallObject, width = 30): string {
  const n = c.counts;
  const finished = n.completed + n.not_reached + n.failed + n.skipped;
  const ratio = n.total === 0 ? 1 : finished / n.total;
  const filled = Math.round(ratio * width);
  const bar = '#'.repeat(filled) + '·'.repeat(width - filled);
  const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
  return (
    `[${bar}] ${pct} ${finished}/${n.total} · completed ${n.completed} · not reached ${n.not_reached} · ` +
    `failed ${n.failed} · skipped ${n.skipped} · in progress ${n.in_progress} · pending ${n.pending} · ${c.status}`
  );
}

/** True once the campaign is over and its end is recorded. */
export const campaignOver = (c: BulkCallObject): boolean =>
  (c.status === 'completed' || c.status === 'canceled') && c.completed_at !== null;

/**
 * Polls the campaign every `intervalMs` and draws its progress until it is over.
 * @returns the final `bulk_call` object
 * @throws Error when no campaign has that id
 */
export async function watchBulkCall(
  id: string,
  opts: { intervalMs: number; out: NodeJS.WriteStream },
): Promise<BulkCallObject> {
  const tty = Boolean(opts.out.isTTY);
  let last = '';
  for (;;) {
    const doc = await BulkCall.findById(id).lean();
    if (!doc) throw new Error(`No such bulk call: ${id}`);
    const c = renderBulkCall(doc);
    const line = progressLine(c);
    if (line !== last) {
      opts.out.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
      last = line;
    }
    if (campaignOver(c)) {
      if (tty) opts.out.write('\n');
      return c;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
}
