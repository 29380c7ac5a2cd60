/**
 * The service's start-up check of its search attributes (src/platform/temporal.ts `verifySearchAttributes`):
 * on a namespace of the harness's Temporal server that lacks them (a fresh one, registered here), the API
 * and worker processes refuse to start with a message naming each missing one, instead of failing calls
 * later; a mistyped one is named with its type; the harness's namespace, which has them, passes.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { msToTs } from '@temporalio/common/lib/time';
import { config } from '../../src/config';
import { searchAttributeKeys, verifySearchAttributes } from '../../src/platform/temporal';
import { h } from '../support/harness';

const ALL = Object.values(searchAttributeKeys).map((k) => k.name);

/** Registers a fresh namespace on the harness's server and waits until its search attributes can be listed. */
async function freshNamespace(): Promise<string> {
  const namespace = `sa-check-${randomUUID().slice(0, 8)}`;
  const { workflowService, operatorService } = h().env.client.connection;
  await workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  for (let i = 0; ; i++) {
    try {
      await operatorService.listSearchAttributes({ namespace });
      return namespace;
    } catch (err) {
      if (i >= 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Runs a production entry point (dist/src/…/main.js) on `namespace` until it exits (or 60 s); its output. */
function runEntryPoint(main: 'api' | 'worker', namespace: string): Promise<{ code: number | null; out: string }> {
  const proc = spawn(process.execPath, [path.resolve(__dirname, `../../src/${main}/main.js`)], {
    env: {
      ...process.env,
      MONGODB_URI: config().mongodbUri,
      SECRETS_KEY: config().secretsKey,
      TEMPORAL_ADDRESS: config().temporalAddress,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: `sa-check-${main}`,
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (c) => (out += c));
  proc.stderr.on('data', (c) => (out += c));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    }),
  );
}

describe('search attributes checked at start', () => {
  let bare: string;
  before(async () => {
    bare = await freshNamespace();
  });

  it('names every missing attribute, with the commands that register them', async () => {
    const err = await verifySearchAttributes(h().env.client, bare).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err, 'a namespace without them passed').to.be.instanceOf(Error);
    for (const name of ALL) {
      expect(err!.message).to.include(`${name} (`);
      expect(err!.message).to.include(`--namespace ${bare} --name ${name} --type`);
    }
    expect(err!.message).to.include('--name Livemode --type Bool');
    expect(err!.message).to.include('--name CallStatus --type Keyword');
  });

  it('passes on the namespace that has them (the harness registered them on its server)', async () => {
    await verifySearchAttributes(h().env.client, config().temporalNamespace);
  });

  for (const main of ['worker', 'api'] as const) {
    it(`the ${main} process refuses to start on a namespace that lacks them, naming them`, async () => {
      const { code, out } = await runEntryPoint(main, bare);
      expect(code, out).to.equal(1);
      // The logger writes the error as JSON: the quotes around the namespace are escaped.
      expect(out).to.match(new RegExp(`Temporal namespace \\\\?"${bare}\\\\?" lacks search attributes`));
      expect(out).to.include(`search-attribute create --namespace ${bare} --name CallStatus --type Keyword`);
      for (const name of ALL) expect(out).to.include(`${name} (`);
      expect(out).not.to.match(main === 'worker' ? /worker running/ : /API listening/);
    });
  }

  it('names an attribute registered with another type, and only it', async () => {
    const namespace = await freshNamespace();
    const { operatorService } = h().env.client.connection;
    // temporal.api.enums.v1.IndexedValueType: 1 = TEXT, 2 = KEYWORD, 5 = BOOL
    const types = Object.fromEntries(
      Object.values(searchAttributeKeys).map((k) => [k.name, k.name === 'CampaignId' ? 1 : k.type === 'BOOL' ? 5 : 2]),
    );
    await operatorService.addSearchAttributes({ namespace, searchAttributes: types });
    const err = await verifySearchAttributes(h().env.client, namespace).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err, 'a mistyped attribute passed').to.be.instanceOf(Error);
    expect(err!.message).to.include('CampaignId is registered with IndexedValueType 1, not Keyword');
    for (const name of ALL.filter((n) => n !== 'CampaignId')) expect(err!.message).not.to.include(name);
    expect(err!.message).to.include('removed and created again');
  });

  it('says so when the namespace does not exist', async () => {
    const err = await verifySearchAttributes(h().env.client, `sa-absent-${randomUUID().slice(0, 8)}`).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).to.be.instanceOf(Error);
    expect(err!.message).to.match(/could not list the search attributes of Temporal namespace "sa-absent-/);
  });
});
