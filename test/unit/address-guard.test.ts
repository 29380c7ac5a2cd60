/**
 * The outbound address guard's last edges (src/providers/webhook-address.ts): IPv4-compatible IPv6
 * addresses (`::/96`, `::a9fe:a9fe` is the metadata service), a port the operator lists
 * (`WEBHOOK_REFUSED_PORTS`, default the ports of Temporal, its UI, the store and worker metrics) and the
 * service's own public address (`PUBLIC_BASE_URL`'s host) are refused, even with `WEBHOOK_ALLOW_PRIVATE`
 * for the last two. Literal addresses only: no DNS is asked.
 */
import { expect } from 'chai';
import { config, loadConfig, setConfig } from '../../src/config';
import { refusedAddressKind, resolveWebhookHost, WebhookAddressError } from '../../src/providers/webhook-address';

/** The refusal's message of `resolveWebhookHost`, or null when the URL is let through. */
async function refusal(url: string, allowPrivate: boolean): Promise<string | null> {
  try {
    await resolveWebhookHost(new URL(url), allowPrivate);
    return null;
  } catch (err) {
    expect(err).to.be.instanceOf(WebhookAddressError);
    expect((err as WebhookAddressError).code).to.equal('address_refused');
    return (err as Error).message;
  }
}

describe('address guard: IPv4-compatible IPv6, refused ports, own addresses', () => {
  // Taken once the harness has set the run's configuration (a describe body runs when the file loads).
  let saved: ReturnType<typeof config>;
  before(() => (saved = config()));
  afterEach(() => setConfig(saved));

  it('refuses IPv4-compatible IPv6 addresses (::/96) by what they carry, or as such', async () => {
    const cases: [string, string | null][] = [
      ['::a9fe:a9fe', 'metadata'],
      ['::169.254.169.254', 'metadata'],
      ['::7f00:1', 'loopback'],
      ['::10.0.0.1', 'private'],
      ['::8.8.8.8', 'ipv4_compatible'],
      ['::808:808', 'ipv4_compatible'],
      ['::ffff:a9fe:a9fe', 'metadata'], // IPv4-mapped: still the IPv4 host itself
      ['::ffff:8.8.8.8', null],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['2606:4700:4700::1111', null],
    ];
    for (const [ip, kind] of cases) expect(refusedAddressKind(ip), ip).to.equal(kind);
    // In a URL, as a tenant would write it (WHATWG URL serializes [::169.254.169.254] as [::a9fe:a9fe]).
    expect(await refusal('https://[::a9fe:a9fe]/latest/meta-data/', false)).to.match(/::a9fe:a9fe, a metadata address/);
    expect(await refusal('https://[::169.254.169.254]/', false)).to.match(/metadata/);
    expect(await refusal('https://[::808:808]/', false)).to.match(/IPv4-compatible/);
  });

  it('refuses the ports the operator lists, default Temporal, its UI, the store and metrics, even with WEBHOOK_ALLOW_PRIVATE', async () => {
    expect(loadConfig({}).webhookRefusedPorts).to.deep.equal([7233, 8233, 27017]);
    expect(
      loadConfig({
        TEMPORAL_ADDRESS: 'temporal.internal:7300',
        MONGODB_URI: 'mongodb://u:p@db1:27100,db2:27101/svc',
        METRICS_WORKER_PORT: '9464',
      }).webhookRefusedPorts,
    ).to.deep.equal([7300, 8233, 9464, 27100]);
    expect(loadConfig({ WEBHOOK_REFUSED_PORTS: '8080, 6379' }).webhookRefusedPorts).to.deep.equal([8080, 6379]);
    expect(loadConfig({ WEBHOOK_REFUSED_PORTS: 'none' }).webhookRefusedPorts).to.deep.equal([]);
    expect(() => loadConfig({ WEBHOOK_REFUSED_PORTS: 'http' })).to.throw(/WEBHOOK_REFUSED_PORTS/);

    setConfig({ ...saved, webhookRefusedPorts: [7233, 6379] });
    expect(await refusal('https://127.0.0.1:7233/api', true)).to.match(/Port 7233 .*WEBHOOK_REFUSED_PORTS/);
    expect(await refusal('https://8.8.8.8:6379/', false)).to.match(/Port 6379/);
    expect(await refusal('https://127.0.0.1:7234/api', true)).to.equal(null);
    expect(await refusal('https://8.8.8.8/', false)).to.equal(null);
  });

  it("refuses the service's own public address (PUBLIC_BASE_URL), in any form", async () => {
    setConfig({ ...saved, publicBaseUrl: 'https://93.184.215.14' });
    for (const url of ['https://93.184.215.14/hook', 'https://[::ffff:5db8:d70e]/hook', 'https://93.184.215.14:8443/'])
      expect(await refusal(url, true), url).to.match(/this service's own address/);
    expect(await refusal('https://93.184.215.15/hook', false)).to.equal(null);
    // A loopback PUBLIC_BASE_URL (development) changes nothing: loopback is WEBHOOK_ALLOW_PRIVATE's to allow.
    setConfig({ ...saved, publicBaseUrl: 'http://127.0.0.1:3000' });
    expect(await refusal('https://127.0.0.1:4443/hook', true)).to.equal(null);
  });
});
