/**
 * The recorded histories (test/replay/histories) replay with tracing on too: the workflow bundle a traced
 * worker runs holds Temporal's OpenTelemetry workflow interceptors (src/platform/tracing.ts
 * `WORKFLOW_TRACING_MODULES`: Temporal's and the one that roots each child call's trace), which must add no
 * command nor change any, so a worker switched to tracing continues the runs a worker without it started,
 * and the other way round.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/worker';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { dataConverter } from '../../src/platform/payload-codec';
import { WORKFLOW_TRACING_MODULES } from '../../src/platform/tracing';
import { WORKFLOWS_PATH } from '../../src/worker/worker';

const DIR = path.resolve(__dirname, '../../../test/replay/histories');

describe('replay of recorded workflow histories with the tracing interceptors', function () {
  this.timeout(300_000);

  it('replays every recorded history without a determinism error', async () => {
    const histories = fs
      .readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => ({
        workflowId: f.replace(/\.json$/, ''),
        history: JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')),
      }));
    expect(histories.length).to.be.greaterThan(0);
    const bundle = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      failureConverterPath: dataConverter.failureConverterPath,
      workflowInterceptorModules: WORKFLOW_TRACING_MODULES,
      logger: new DefaultLogger('WARN'),
    });
    expect(bundle.code).to.include('OpenTelemetryInboundInterceptor');
    expect(bundle.code).to.include('TraceRoots').and.include('MessageTraces');
    const exporter = new InMemorySpanExporter();
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      {
        workflowBundle: bundle,
        replayName: 'replay-traced',
        dataConverter,
        sinks: { exporter: makeWorkflowExporter(new SimpleSpanProcessor(exporter), Resource.default()) },
      },
      histories,
    )) {
      expect(result.error, `${result.workflowId}: ${result.error?.message}`).to.equal(undefined);
      replayed++;
    }
    expect(replayed).to.equal(histories.length);
  });
});
