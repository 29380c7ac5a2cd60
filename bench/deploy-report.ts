/**
 * What bench/deploy.ts reads after a rolling deploy, and its table. Per workflow run of the namespace: the
 * build id of every workflow task completed (`WorkflowTaskCompleted.deploymentVersion`, the version whose
 * worker ran it) and every workflow task failed (non-determinism: cause `NON_DETERMINISTIC_ERROR`, or a
 * failure saying so). Per call: the version of its last task (the one that finished it), the memo
 * `deployment_version` (written by 0.2.0's `callWorkflow` and later, `PATCHES.callFinishedOnMemo`: absent
 * on a call version A finished) and Temporal's `versioningInfo` (describe: behavior and version).
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const { EventType, WorkflowTaskFailedCause, VersioningBehavior } = temporal.api.enums.v1;

/** A call as the API lists it. */
export interface CallRecord {
  id: string;
  status: string;
  /** `metadata.deploy_key` of a call the bench placed (`old-N`, `new-N`); undefined for a campaign's call. */
  key?: string;
  campaign: boolean;
}

/** One workflow run's versions and failures, from its history. */
export interface RunInfo {
  workflowId: string;
  runId: string;
  type: string;
  startMs: number;
  /** When its last event was written (a closed run's close). */
  lastMs: number;
  /** Build ids of its completed workflow tasks, consecutive repeats folded: `[A]`, `[A, B]`. */
  builds: string[];
  /** When each build completed its first workflow task of the run (ms since the epoch). */
  firstTaskMs: Record<string, number>;
  /** Build id of its last completed workflow task. */
  lastBuild: string | null;
  taskFailures: number;
  nondeterminism: number;
  /** Closed runs: `COMPLETED`, `FAILED`…; `RUNNING`. */
  status: string;
}

/** A call's or the campaign's description: memo and Temporal's versioning info. */
export interface Described {
  memoVersion: string | null | undefined;
  behavior: string;
  version: string | null;
}

/** What `inspectRuns` found. */
export interface Runs {
  all: RunInfo[];
  described: Record<string, Described>;
}

/** Every figure of one bench run. */
export interface DeployFigures {
  aBuild: string;
  bBuild: string;
  /** When `svcctl deploy promote` was run, and when it answered. */
  promoteSentMs: number;
  promotedMs: number;
  sent: { old: { key: string; callId?: string }[]; new: { key: string; callId?: string }[] };
  calls: CallRecord[];
  results: any[];
  campaign: any;
  runs: Runs;
  drain: any;
  /** `svcctl deploy drain` once everything was over (Temporal's own status refreshed since). */
  finalDrain: any;
  drainS: number;
  summary: Record<string, unknown>;
}

/** The build id a completed workflow task names (current field, else the deprecated string form). */
function taskBuild(attrs: any): string | null {
  return (
    attrs?.deploymentVersion?.buildId ||
    (typeof attrs?.workerDeploymentVersion === 'string' ? attrs.workerDeploymentVersion.split(':')[1] : null) ||
    attrs?.deployment?.buildId ||
    null
  );
}

/** One run's history, read. */
async function runInfo(client: Client, workflowId: string, runId: string, type: string, status: string) {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const info: RunInfo = {
    workflowId,
    runId,
    type,
    startMs: 0,
    lastMs: 0,
    builds: [],
    firstTaskMs: {},
    lastBuild: null,
    taskFailures: 0,
    nondeterminism: 0,
    status,
  };
  for (const e of history.events ?? []) {
    if (e.eventTime?.seconds != null) {
      info.lastMs = Number(e.eventTime.seconds) * 1000 + Math.floor((e.eventTime.nanos ?? 0) / 1e6);
      info.startMs ||= info.lastMs;
    }
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
      const build = taskBuild(e.workflowTaskCompletedEventAttributes);
      if (build && info.builds[info.builds.length - 1] !== build) info.builds.push(build);
      if (build) info.firstTaskMs[build] ??= info.lastMs;
      info.lastBuild = build;
    }
    if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
      const a = e.workflowTaskFailedEventAttributes;
      info.taskFailures++;
      if (
        a?.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR ||
        /nondetermin|non-determin/i.test(a?.failure?.message ?? '')
      )
        info.nondeterminism++;
    }
  }
  return info;
}

const behaviorName = (b: unknown) =>
  (Object.keys(VersioningBehavior).find((k) => (VersioningBehavior as any)[k] === b) ?? 'UNSPECIFIED').replace(
    'VERSIONING_BEHAVIOR_',
    '',
  );

/** Describes one workflow (its latest run): the memo's `deployment_version` and Temporal's versioning info. */
async function describe(client: Client, workflowId: string): Promise<Described> {
  const d = await client.workflow.getHandle(workflowId).describe();
  const v = (d.raw.workflowExecutionInfo as any)?.versioningInfo;
  const memo = d.memo ?? {};
  return {
    memoVersion: 'deployment_version' in memo ? ((memo.deployment_version as string | null) ?? null) : undefined,
    behavior: behaviorName(v?.behavior),
    version: v?.deploymentVersion?.buildId || (typeof v?.version === 'string' ? v.version.split(':')[1] : null) || null,
  };
}

/** Reads every run of the namespace (histories), and describes each call and the campaign. */
export async function inspectRuns(client: Client, calls: CallRecord[], campaignId: string): Promise<Runs> {
  const listed: { workflowId: string; runId: string; type: string; status: string }[] = [];
  for await (const w of client.workflow.list())
    listed.push({ workflowId: w.workflowId, runId: w.runId, type: w.type, status: w.status.name });
  const all: RunInfo[] = [];
  for (let i = 0; i < listed.length; i += 8)
    all.push(
      ...(await Promise.all(
        listed.slice(i, i + 8).map((w) => runInfo(client, w.workflowId, w.runId, w.type, w.status)),
      )),
    );
  const described: Record<string, Described> = {};
  for (const id of [...calls.map((c) => c.id), campaignId]) described[id] = await describe(client, id);
  return { all, described };
}

/** `n/d` or `n`. */
const of = (n: number, d?: number) => (d === undefined ? String(n) : `${n}/${d}`);

/** The figures the table shows (and the JSON line), from what the bench read. */
export function summarize(f: DeployFigures): Record<string, number | string> {
  const A = f.aBuild;
  const B = f.bBuild;
  const runsOf = (id: string) => f.runs.all.filter((r) => r.workflowId === id).sort((x, y) => x.startMs - y.startMs);
  const finishedOn = (id: string) => runsOf(id).at(-1)?.lastBuild ?? null;
  const startedOn = (id: string) => runsOf(id)[0]?.builds[0] ?? null;
  const pinned = (id: string) => new Set(runsOf(id).flatMap((r) => r.builds)).size === 1;
  const startMs = (id: string) => runsOf(id)[0]?.startMs ?? 0;
  const openAtPromotion = (ids: CallRecord[]) => ids.filter((c) => (runsOf(c.id).at(-1)?.lastMs ?? 0) > f.promotedMs);
  const byKey = new Map<string, CallRecord[]>();
  for (const c of f.calls) if (c.key) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  const oldCalls = f.calls.filter((c) => c.key?.startsWith('old-'));
  const newCalls = f.calls.filter((c) => c.key?.startsWith('new-'));
  const campaignCalls = f.calls.filter((c) => c.campaign);
  const campaignRuns = runsOf(f.campaign.id);
  // A call is pinned to the version current when it started: before the promotion command A, after its
  // answer B; one started while the command ran may be on either (the instant Temporal switched is not seen).
  const movedMs = campaignRuns.map((r) => r.firstTaskMs[B]).find((ms) => ms !== undefined) ?? Infinity;
  const campaignEarlier = campaignCalls.filter((c) => startMs(c.id) < f.promoteSentMs);
  const campaignDuring = campaignCalls.filter((c) => startMs(c.id) >= f.promoteSentMs && startMs(c.id) <= f.promotedMs);
  const campaignLater = campaignCalls.filter((c) => startMs(c.id) > f.promotedMs);
  const sentKeys = [...f.sent.old, ...f.sent.new].map((s) => s.key);
  const resultCallIds = f.results.flatMap((r) => (r.call_ids as string[]) ?? []);
  const campaignBuilds = [...new Set(campaignRuns.flatMap((r) => r.builds))];
  const d = f.runs.described;
  const memoB = (ids: CallRecord[]) => ids.filter((c) => d[c.id]?.memoVersion?.endsWith(`:${B}`)).length;
  const memoAbsent = (ids: CallRecord[]) => ids.filter((c) => d[c.id]?.memoVersion === undefined).length;
  const described = (ids: CallRecord[], build: string) =>
    ids.filter((c) => d[c.id]?.version === build && d[c.id]?.behavior === 'PINNED').length;
  return {
    calls_placed: sentKeys.length,
    calls_started: f.calls.length,
    calls_completed: f.calls.filter((c) => c.status === 'completed').length,
    calls_failed: f.calls.filter((c) => c.status === 'failed').length,
    old_calls: oldCalls.length,
    old_open_at_promotion: openAtPromotion(oldCalls).length,
    old_finished_on_A: oldCalls.filter((c) => finishedOn(c.id) === A && pinned(c.id)).length,
    old_memo_absent: memoAbsent(oldCalls),
    old_described_pinned_A: described(oldCalls, A),
    new_calls: newCalls.length,
    new_finished_on_B: newCalls.filter((c) => startedOn(c.id) === B && finishedOn(c.id) === B && pinned(c.id)).length,
    new_memo_B: memoB(newCalls),
    new_described_pinned_B: described(newCalls, B),
    campaign_contacts: f.results.length,
    campaign_status: f.campaign.status,
    campaign_builds: campaignBuilds.map((b) => (b === A ? 'A' : b === B ? 'B' : b)).join('→'),
    campaign_described: `${d[f.campaign.id]?.behavior} ${d[f.campaign.id]?.version === B ? 'B' : d[f.campaign.id]?.version}`,
    campaign_moved_s: Number.isFinite(movedMs) ? Math.round((movedMs - f.promotedMs) / 100) / 10 : -1,
    campaign_calls_before: campaignEarlier.length,
    campaign_calls_before_on_A: campaignEarlier.filter((c) => finishedOn(c.id) === A && pinned(c.id)).length,
    campaign_calls_during: campaignDuring.length,
    campaign_calls_during_pinned: campaignDuring.filter((c) => pinned(c.id)).length,
    campaign_calls_after: campaignLater.length,
    campaign_calls_after_on_B: campaignLater.filter((c) => finishedOn(c.id) === B && pinned(c.id)).length,
    campaign_calls_after_memo_B: memoB(campaignLater),
    other_moved: [
      ...new Set(
        f.runs.all
          .filter((r) => r.type !== 'callWorkflow' && r.type !== 'bulkCallWorkflow')
          .filter((r) => r.builds.includes(A) && r.builds.includes(B))
          .map((r) => r.type),
      ),
    ].join(', '),
    workflow_runs_read: f.runs.all.length,
    workflow_task_failures: f.runs.all.reduce((n, r) => n + r.taskFailures, 0),
    nondeterminism_errors: f.runs.all.reduce((n, r) => n + r.nondeterminism, 0),
    runs_failed: f.runs.all.filter((r) => r.status === 'FAILED' || r.status === 'TERMINATED').length,
    lost: sentKeys.filter((k) => !byKey.has(k)).length + f.results.filter((r) => !r.call_ids?.length).length,
    duplicated:
      [...byKey.values()].filter((v) => v.length > 1).length +
      (resultCallIds.length - new Set(resultCallIds).size) +
      Math.max(0, campaignCalls.length - f.results.length),
    drain_open_after: f.drain?.open_workflows ?? -1,
    drain_s: Math.round(f.drainS),
    temporal_drainage: f.finalDrain?.drainage ?? 'unknown',
  };
}

/** The table printed at the end (README "Rolling deploys" shows it). */
export function renderDeployTable(f: DeployFigures): string {
  const s = summarize(f);
  f.summary = s;
  const n = (k: string) => s[k] as number;
  const rows: [string, string][] = [
    ['versions', `A ${f.aBuild} → B ${f.bBuild}`],
    [
      'calls placed / started / completed / failed',
      `${n('calls_placed')} keyed + ${n('campaign_contacts')} campaign / ${n('calls_started')} / ${n('calls_completed')} / ${n('calls_failed')}`,
    ],
    ['old calls (started on A) still open at the promotion', of(n('old_open_at_promotion'), n('old_calls'))],
    ['old calls finished on A, every task on A', of(n('old_finished_on_A'), n('old_calls'))],
    [
      '  their memo without deployment_version (A code) / describe PINNED on A',
      `${of(n('old_memo_absent'), n('old_calls'))} / ${of(n('old_described_pinned_A'), n('old_calls'))}`,
    ],
    ['new calls (after the promotion) started and finished on B', of(n('new_finished_on_B'), n('new_calls'))],
    [
      '  their memo deployment_version = B / describe PINNED on B',
      `${of(n('new_memo_B'), n('new_calls'))} / ${of(n('new_described_pinned_B'), n('new_calls'))}`,
    ],
    [
      'campaign: status, versions of its workflow tasks, describe',
      `${s.campaign_status}, ${s.campaign_builds}, ${s.campaign_described}`,
    ],
    ['  its first workflow task on B, after the promotion', `${n('campaign_moved_s')} s`],
    ['  its calls started before the promotion, on A', of(n('campaign_calls_before_on_A'), n('campaign_calls_before'))],
    [
      '  started while `svcctl deploy promote` ran: pinned to one version',
      of(n('campaign_calls_during_pinned'), n('campaign_calls_during')),
    ],
    [
      '  started after it (later contacts), on B (memo B)',
      `${of(n('campaign_calls_after_on_B'), n('campaign_calls_after'))} (${n('campaign_calls_after_memo_B')})`,
    ],
    ['other runs moved A→B at their next task', String(s.other_moved || 'none')],
    [
      'workflow runs read; task failures; non-determinism errors; runs failed',
      `${n('workflow_runs_read')}; ${n('workflow_task_failures')}; ${n('nondeterminism_errors')}; ${n('runs_failed')}`,
    ],
    ['lost / duplicated (keys, campaign contacts)', `${n('lost')} / ${n('duplicated')}`],
    [
      "drain of A (svcctl deploy drain --wait): runs left, seconds; Temporal's status at the end",
      `${n('drain_open_after')}, ${n('drain_s')} s; ${s.temporal_drainage}`,
    ],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  return ['| measure | figure |', '|---|---|', ...rows.map(([k, v]) => `| ${k.padEnd(w)} | ${v} |`)].join('\n');
}
