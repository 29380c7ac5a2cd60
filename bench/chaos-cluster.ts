/**
 * The chaos bench's cluster mode (`npm run bench:chaos -- --cluster`, bench/chaos.ts): the service run by
 * scripts/stack-cluster.sh (PostgreSQL, Temporal as frontend + two history hosts + matching + internal
 * worker, FerretDB on PostgreSQL, two APIs and two workers behind HAProxy) under a temporary directory
 * and its own ports, the bench's loopback fakes (OpenAI, webhook receiver) handed to the service through
 * the environment. A fault is one part SIGKILLed (`stack-cluster.sh kill`) and started again after a
 * while (`stack-cluster.sh start`); the client sends every request to HAProxy.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The faults of cluster mode: the part SIGKILLed and the table's label. */
export const CLUSTER_FAULTS = {
  none: { part: undefined, label: 'cluster: none' },
  history: { part: 'history-1', label: 'cluster: history host 1 of 2 SIGKILLed' },
  matching: { part: 'matching', label: 'cluster: matching SIGKILLed' },
  frontend: { part: 'frontend', label: 'cluster: frontend SIGKILLed' },
  postgres: { part: 'pg', label: 'cluster: PostgreSQL SIGKILLed' },
  api: { part: 'api-1', label: 'cluster: API 1 of 2 SIGKILLed' },
  worker: { part: 'worker-1', label: 'cluster: worker 1 of 2 SIGKILLed' },
} as const;
export type ClusterFault = keyof typeof CLUSTER_FAULTS;

/** A running cluster: where it keeps its data, its ports, and the environment of its service processes. */
export interface ClusterStack {
  dir: string;
  portBase: number;
  env: NodeJS.ProcessEnv;
  /** HAProxy's address, in front of both APIs. */
  url: string;
  /** What the service's processes read: the cluster's store, the secrets key (svcctl needs both). */
  mongodbUri: string;
}

/** Runs `bash scripts/stack-cluster.sh ...args` with the cluster's environment; its output goes to stderr. */
function script(cluster: Pick<ClusterStack, 'dir' | 'portBase' | 'env'>, ...args: string[]): Promise<void> {
  const child = spawn('bash', [path.join(ROOT, 'scripts/stack-cluster.sh'), ...args], {
    env: {
      ...cluster.env,
      CLUSTER_DIR: cluster.dir,
      CLUSTER_PORT_BASE: String(cluster.portBase),
      CLUSTER_SKIP_BUILD: '1',
    },
    stdio: ['ignore', process.stderr, process.stderr],
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`stack-cluster.sh ${args.join(' ')} exited ${code}`)),
    ),
  );
}

/**
 * Starts the cluster under `dir` (ports from `portBase`, as stack-cluster.sh numbers them) with the service
 * processes' environment `env` (the fakes' addresses, SECRETS_KEY...); resolves once every part answers.
 */
export async function startCluster(dir: string, portBase: number, env: NodeJS.ProcessEnv): Promise<ClusterStack> {
  const cluster = {
    dir,
    portBase,
    env,
    url: `http://127.0.0.1:${portBase + 80}`,
    mongodbUri: `mongodb://127.0.0.1:${portBase + 17}/svc?maxPoolSize=12`,
  };
  await script(cluster, 'up');
  return cluster;
}

/** SIGKILLs the fault's part; resolves once it has exited. */
export async function killPart(cluster: ClusterStack, fault: ClusterFault): Promise<void> {
  const { part } = CLUSTER_FAULTS[fault];
  if (part) await script(cluster, 'kill', part);
}

/** Starts the fault's part again; resolves once it answers. */
export async function restartPart(cluster: ClusterStack, fault: ClusterFault): Promise<void> {
  const { part } = CLUSTER_FAULTS[fault];
  if (part) await script(cluster, 'start', part);
}

/** Stops every part of the cluster (its data stays under `dir`). */
export function stopCluster(cluster: ClusterStack): Promise<void> {
  return script(cluster, 'down');
}
