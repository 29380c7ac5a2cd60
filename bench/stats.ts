/** Small statistics shared by the benchmark scripts, and what Linux says about a process. */
import fs from 'node:fs';

/** The nearest-rank `p`th percentile of ascending `sorted` values (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Resident memory of a process in MiB (Linux `/proc/<pid>/status` VmRSS). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** CPU time a process has used so far, user + system, in ms (Linux `/proc/<pid>/stat`; USER_HZ 100). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One request the loopback LLM received: the call it was for (`user`), when it came and when it was answered (ms). */
export interface LlmRequestTimes {
  user?: string;
  atMs?: number;
  answeredMs?: number;
}

/**
 * Per-turn gaps of the calls `ids`: from the LLM's answer to the same call's next request (ms, the loopback
 * LLM's clock; test/support/fake-llm.ts `requests`), every gap of every call.
 */
export function turnGaps(requests: LlmRequestTimes[], ids: string[]): number[] {
  const wanted = new Set(ids);
  const byCall = new Map<string, { atMs: number; answeredMs: number }[]>();
  for (const r of requests) {
    if (!r.user || !wanted.has(r.user) || r.atMs === undefined || r.answeredMs === undefined) continue;
    byCall.set(r.user, [...(byCall.get(r.user) ?? []), { atMs: r.atMs, answeredMs: r.answeredMs }]);
  }
  const gaps: number[] = [];
  for (const list of byCall.values()) {
    list.sort((a, b) => a.atMs - b.atMs);
    for (let i = 0; i + 1 < list.length; i++) gaps.push(list[i + 1].atMs - list[i].answeredMs);
  }
  return gaps;
}
