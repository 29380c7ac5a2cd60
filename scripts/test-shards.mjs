// `npm test`'s runner: the compiled test files (dist/test/**/*.test.js) split into TEST_JOBS shards, each
// run by its own mocha process with the options of .mocharc.json, side by side. Each mocha process starts
// its own harness (test/support/hooks.ts: a Temporal dev server, a FerretDB, a worker, the API, the fakes,
// on free loopback ports and in its own temporary data folder), so shards share nothing but the machine.
// Most of the suite's time is spent waiting (timers, retries, processes killed and restarted), not on a
// core, which is why two shards finish in a little more than half the time on a 2-core machine.
//
// Files are dealt longest first to the shard with the least work so far (the LPT rule), by the seconds each
// took in a recorded whole run (test/shard-weights.json; a file not listed counts DEFAULT_WEIGHT s). The
// first shard's output is printed as it comes, the others' after it, each under a header; the last line is
// the sum of the shards' summary lines, `N passed, N failed, N skipped` (test/support/reporter.ts), and the
// exit code is non-zero when any shard failed or printed no summary. When a test failed, each failed shard's
// failures (mocha's numbered list with the errors, then the reporter's `failed: <file> › <title>` lines) are
// printed once more after that line, so that a log cut to its end still says which test failed and why.
// Files with a failed test are then run once more, alone (at most RERUN_AT_MOST of them, below): a failure that
// does not come back is printed as flaky and the run passes; one that comes back fails it.
//
// Files whose tests time real media against a deadline (SOLO: audio through a real LiveKit server, where a
// barge-in must land inside a window of a few hundred milliseconds) run after the shards, alone, in one more
// mocha process: the other shard's load never stretches their windows.
//
//   npm test                       two shards (one on a single-core machine)
//   TEST_JOBS=1 npm test           one mocha process, as `mocha` alone runs it
//   npm test -- --grep "webhooks"  extra arguments go to every shard
//
// QUERY_SHAPES_OUT (test/support/query-shapes-hooks.ts) writes one file per run, so it runs one shard.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_WEIGHT = 5;
/** Files run alone after the shards (see above). */
const SOLO = ['dist/test/integration/voice-rooms.test.js', 'dist/test/integration/voice-room-recording.test.js'];
const SUMMARY = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m;

/** The compiled test files under `dir` (relative to the project, sorted). */
function testFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return testFiles(p);
      return e.name.endsWith('.test.js') ? [path.relative(root, p)] : [];
    })
    .sort();
}

/** `files` dealt into `n` shards, longest first to the lightest shard (LPT), by `weights` in seconds. */
function deal(files, n, weights) {
  const shards = Array.from({ length: n }, () => ({ files: [], seconds: 0 }));
  const weight = (f) => weights[f] ?? DEFAULT_WEIGHT;
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(file);
    lightest.seconds += weight(file);
  }
  for (const s of shards) s.files.sort();
  return shards.filter((s) => s.files.length > 0);
}

/** mocha's arguments for .mocharc.json's options (but its `spec`, replaced by the shard's files). */
function mochaArgs(files, extra) {
  const rc = JSON.parse(fs.readFileSync(path.join(root, '.mocharc.json'), 'utf8'));
  const args = ['--no-config'];
  for (const r of rc.require ?? []) args.push('--require', r);
  if (rc.timeout !== undefined) args.push('--timeout', String(rc.timeout));
  if (rc.reporter) args.push('--reporter', rc.reporter);
  if (rc.exit) args.push('--exit');
  return [...args, ...extra, ...files];
}

/** Runs one shard; resolves with its exit code and its whole output. `live`: also echo it as it comes. */
function runShard(files, extra, live) {
  const mocha = path.join(root, 'node_modules/mocha/bin/mocha.js');
  const child = spawn(process.execPath, [mocha, ...mochaArgs(files, extra)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const take = (stream) => (chunk) => {
    output += chunk;
    if (live) stream.write(chunk);
  };
  child.stdout.on('data', take(process.stdout));
  child.stderr.on('data', take(process.stderr));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output })),
  );
}

/** The part of a mocha output from its `N failing` line to its summary line, at most 20,000 characters. */
function failureReport(output) {
  const start = output.search(/^\s*\d+ failing$/m);
  if (start < 0) return undefined;
  const part = output.slice(start).replace(SUMMARY, '').trimEnd();
  return part.length > 20_000 ? `${part.slice(0, 10_000)}\n…\n${part.slice(-10_000)}` : part;
}

/** The last 4,000 characters of an output that has no `N failing` list (a crash, a missing summary). */
function tail(output) {
  return output.length > 4_000 ? `…${output.slice(-4_000)}` : output;
}

const children = [];
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const c of children) c.kill(signal);
    process.exitCode = 130;
  });
}

const extra = process.argv.slice(2);
const files = testFiles(path.join(root, 'dist/test'));
if (files.length === 0) {
  console.error('No compiled tests under dist/test: run `npm run build` first.');
  process.exit(1);
}
// The browser tests' Chromium, installed here once before the shards start when the machine has none
// (scripts/install-chromium.sh): otherwise both shards' first browser tests would wait for apt-get inside
// their hooks' timeouts. A failure here is left to those tests to report.
if (files.some((f) => f.startsWith('dist/test/browser/')) && !extra.includes('--dry-run')) {
  spawnSync('bash', [path.join(root, 'scripts/install-chromium.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
}
const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const asked = Number(process.env.TEST_JOBS || (cores >= 2 ? 2 : 1));
const jobs = process.env.QUERY_SHAPES_OUT ? 1 : Math.max(1, Math.min(asked, files.length));
const weightsFile = path.join(root, 'test/shard-weights.json');
const weights = fs.existsSync(weightsFile) ? JSON.parse(fs.readFileSync(weightsFile, 'utf8')) : {};
const solo = jobs > 1 ? files.filter((f) => SOLO.includes(f)) : [];
const shards = deal(
  files.filter((f) => !solo.includes(f)),
  jobs,
  weights,
);
if (solo.length) shards.push({ files: solo, seconds: solo.reduce((a, f) => a + (weights[f] ?? DEFAULT_WEIGHT), 0) });
const parallel = solo.length ? shards.length - 1 : shards.length;

const header = (i) =>
  `\n── ${i < parallel ? `shard ${i + 1} of ${parallel}` : 'alone, after the shards'}: ${shards[i].files.length} files, about ${Math.round(shards[i].seconds / 60)} min recorded ──\n`;
const started = Date.now();
if (shards.length > 1) process.stdout.write(header(0));
const results = await Promise.all(shards.slice(0, parallel).map((s, i) => runShard(s.files, extra, i === 0)));
for (let i = 1; i < results.length; i++) process.stdout.write(header(i) + results[i].output);
if (solo.length && process.exitCode !== 130) {
  process.stdout.write(header(parallel));
  results.push(await runShard(solo, extra, true));
}

/** A run's summary counts `[passed, failed, skipped]`, or undefined when it printed no summary line. */
function summaryOf(output) {
  const m = output.match(new RegExp(SUMMARY.source, 'gm'))?.pop()?.match(SUMMARY);
  return m ? [1, 2, 3].map((k) => Number(m[k])) : undefined;
}

/** The reporter's `failed: <file> › <title>` lines of an output (test/support/reporter.ts). */
function failedLines(output) {
  return output.split('\n').filter((line) => line.startsWith('failed: '));
}

const totals = [0, 0, 0];
let failed = false;
results.forEach((r, i) => {
  const counts = summaryOf(r.output);
  if (!counts) console.error(`shard ${i + 1} printed no summary (exit code ${r.code})`);
  if (!counts || r.code !== 0) failed = true;
  if (counts) for (let k = 0; k < 3; k++) totals[k] += counts[k];
});
if (shards.length > 1)
  console.log(
    `\n${parallel} shards${solo.length ? ', then the files run alone,' : ''} in ${Math.round((Date.now() - started) / 1000)} s; all together:`,
  );
console.log(`${totals[0]} passed, ${totals[1]} failed, ${totals[2]} skipped`);
const report = (r, name) =>
  console.log(`\n── failures in ${name} (exit code ${r.code}) ──\n${failureReport(r.output) ?? tail(r.output)}`);
results.forEach((r, i) => {
  if (r.code !== 0) report(r, i < parallel ? `shard ${i + 1}` : 'the files run alone');
});

// A failure in a shard whose file then passes when run alone, once, in a mocha process of its own, is reported
// as flaky and does not fail the run: the two shards share two cores, and a test that times the machine can
// lose its window to the other shard's load. Only a few failed files are run again, and only when every shard
// printed its summary and named each of its failures (a crash, a missing summary or a broken file fails the
// run as before). What failed stays in the output (above, and named again below), for whoever fixes it.
const RERUN_AT_MOST = 3;
const failures = results.flatMap((r) => (r.code === 0 ? [] : failedLines(r.output)));
const failedFiles = [...new Set(failures.map((line) => line.slice('failed: '.length).split(' › ')[0]))];
const rerunnable =
  failed &&
  process.exitCode !== 130 &&
  results.every((r) => {
    const counts = summaryOf(r.output);
    return counts && (r.code === 0 || failedLines(r.output).length === counts[1]);
  }) &&
  failedFiles.length > 0 &&
  failedFiles.length <= RERUN_AT_MOST &&
  failedFiles.every((f) => files.includes(f));
if (rerunnable) {
  process.stdout.write(`\n── the ${failedFiles.length} file(s) with a failure, run again alone, once ──\n`);
  const again = await runShard(failedFiles, extra, true);
  const counts = summaryOf(again.output);
  if (again.code === 0 && counts && counts[1] === 0) {
    console.log(`\nflaky: failed in a shard, passed when its file ran again alone (the failures are printed above):`);
    for (const line of failures) console.log(`  ${line}`);
    console.log(`${totals[0] + totals[1]} passed, 0 failed, ${totals[2]} skipped`);
    process.exit(process.exitCode ?? 0);
  }
  report(again, 'the files run again alone');
  console.log(`${totals[0]} passed, ${totals[1]} failed, ${totals[2]} skipped`);
}
process.exit(failed ? 1 : (process.exitCode ?? 0));
