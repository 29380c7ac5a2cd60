/**
 * The Go SDK (sdk/go) from a clean module against the real service: sdk/go/examples/quickstart/main.go
 * is copied into a new Go module outside the repository with a `replace` to sdk/go (test/support/go-sdk.ts),
 * vetted, built and run as a new user runs it — an agent, a webhook endpoint, two test calls with
 * metadata polled to `completed`, the transcript, the calls page by page, a 422 caught with errors.As as
 * a *svc.Error — and then verifies a real delivery with webhook.ConstructEvent (a forged one refused).
 * A second sample with a type error (sdk/go/testdata/typeerror) must be rejected by `go vet`; the SDK's
 * own Go unit tests (httptest servers: retries, idempotency, errors, paging, streams, webhooks) pass.
 */
import path from 'node:path';
import { expect } from 'chai';
import { h, newTenant } from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { GO_SDK_DIR, buildVetTestSdk, newGoSample, vetAndBuild, vetFailure, type GoSample } from '../support/go-sdk';

/** The JSON line a sample command prints last. */
function lastJson(stdout: string): any {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

describe('Go SDK from a clean module against the real service', function () {
  this.timeout(300_000);
  let receiver: HttpsReceiver;
  let sample: GoSample;

  before(async function () {
    this.timeout(600_000);
    receiver = await startHttpsReceiver();
    sample = newGoSample(path.join(GO_SDK_DIR, 'examples/quickstart/main.go'));
    await vetAndBuild(sample);
  });
  after(async () => {
    sample?.remove();
    await receiver?.close();
  });

  it('runs the quickstart: agent, webhook endpoint, calls polled to completed, transcript, pages, a typed 422, a verified delivery', async () => {
    const tenant = await newTenant();
    const result = lastJson(
      await sample.run(['flow'], {
        SVC_BASE_URL: h().api.url,
        SVC_API_KEY: tenant.testKey,
        SVC_WEBHOOK_URL: receiver.url('/sdk-go'),
      }),
    );
    expect(result.statuses).to.deep.equal(['completed', 'completed']);
    expect(result.metadata).to.deep.equal({ sdk: 'go', n: '1' });
    expect(result.transcript).to.include('Hi, is my appointment at ten?');
    expect(result.first_page).to.deep.equal({ count: 1, has_more: true });
    // Newest first, one call per page, through starting_after (the 422 sample's calls come after).
    expect(result.paged_ids).to.deep.equal([...result.call_ids].reverse());
    expect(result.error).to.deep.equal({
      status: 422,
      type: 'idempotency_error',
      code: 'idempotency_key_reused',
      request_id: true,
      is_reused: true,
    });

    await receiver.waitFor((r) => r.filter((x) => x.path === '/sdk-go').length >= 2, 60_000, 'call.ended deliveries');
    const delivery = receiver.at('/sdk-go')[0];
    const verified = lastJson(
      await sample.run(['verify'], {
        SVC_PAYLOAD: delivery.rawBody,
        SVC_SIGNATURE: delivery.headers['svc-signature'] as string,
        SVC_SECRET: result.webhook_secret,
      }),
    );
    expect(verified).to.deep.include({ type: 'call.ended', id: delivery.body.id, object: '*svc.CallEvent' });
    expect(result.call_ids).to.include(verified.call_id);
    expect(verified.forged_refused).to.equal(true);
  });

  it('builds, vets and passes its unit tests in sdk/go (retries, idempotency, errors, paging, streams, webhooks)', async () => {
    const output = await buildVetTestSdk();
    expect(output).to.match(/^ok\s+\S+\/sdk-go\s/m);
    expect(output).to.match(/^ok\s+\S+\/sdk-go\/webhook\s/m);
    expect(output).not.to.match(/^FAIL/m);
  });

  it('rejects a sample with a type error at go vet', async () => {
    const broken = newGoSample(path.join(GO_SDK_DIR, 'testdata/typeerror/main.go'));
    try {
      const output = await vetFailure(broken);
      expect(output).to.match(/cannot use 42 \(untyped int constant\) as string value/);
    } finally {
      broken.remove();
    }
  });
});
