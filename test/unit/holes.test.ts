/**
 * Smaller holes, as pure functions and one local listener: the SSRF guard's classification
 * (ipaddr.js ranges: NAT64, SIIT, 6to4 and its relay anycast refused), `TRUST_PROXY` and
 * `RELAY_STREAM_HOST` parsing, and the relay token channel refusing unsigned or wrongly signed streams and
 * a non-loopback host without TLS.
 */
import { expect } from 'chai';
import { config, loadConfig, setConfig } from '../../src/config';
import { refusedAddressKind } from '../../src/providers/webhook-address';
import { relaySignature, relayTokenServer } from '../../src/voice/relay';

describe('smaller holes', () => {
  describe('SSRF guard', () => {
    it('refuses NAT64, SIIT, 6to4 and 192.88.99.0/24 whatever they carry; keeps public unicast', () => {
      const cases: [string, string | null][] = [
        ['64:ff9b::8.8.8.8', 'translated'], // NAT64 well-known prefix
        ['64:ff9b::808:808', 'translated'],
        ['64:ff9b:1::808:808', 'translated'], // NAT64 local-use prefix
        ['64:ff9b:1:abcd::1', 'translated'],
        ['::ffff:0:8.8.8.8', 'translated'], // SIIT (IPv4-translated)
        ['2002:808:808::1', 'translated'], // 6to4
        ['192.88.99.1', 'translated'], // 6to4 relay anycast
        ['64:ff9b::10.0.0.1', 'private'], // a refused IPv4 address inside is named
        ['::ffff:0:127.0.0.1', 'loopback'],
        ['2002:a9fe:a9fe::1', 'metadata'],
        ['2001::1', 'reserved'], // Teredo
        ['100::1', 'reserved'], // discard
        ['192.0.0.8', 'reserved'],
        ['fec0::1', 'private'],
        ['100.100.100.200', 'metadata'],
        ['::ffff:10.0.0.1', 'private'], // IPv4-mapped: the IPv4 host itself
        ['::ffff:8.8.8.8', null],
        ['1.1.1.1', null],
        ['2a00:1450:4001:830::200e', null],
      ];
      for (const [ip, kind] of cases) expect(refusedAddressKind(ip), ip).to.equal(kind);
      expect(() => refusedAddressKind('0x7f.1')).to.throw(TypeError);
    });
  });

  describe('configuration', () => {
    it('passes TRUST_PROXY through as Express takes it, refusing a malformed one', () => {
      expect(loadConfig({}).trustProxy).to.equal(false);
      expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).to.equal(true);
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.equal(2);
      expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1' }).trustProxy).to.equal(
        'loopback, 10.0.0.0/8, fd00::1',
      );
      expect(() => loadConfig({ TRUST_PROXY: 'the balancer' })).to.throw(/TRUST_PROXY/);
    });

    it('refuses a RELAY_STREAM_HOST other than loopback without TLS', () => {
      for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.0.2'])
        expect(loadConfig({ RELAY_STREAM_HOST: host }).relayStreamHost).to.equal(host);
      for (const host of ['10.0.0.5', '0.0.0.0', 'api.internal'])
        expect(() => loadConfig({ RELAY_STREAM_HOST: host }), host).to.throw(/RELAY_STREAM_HOST .*TLS/);
      const withTls = loadConfig({
        RELAY_STREAM_HOST: '10.0.0.5',
        RELAY_STREAM_TLS_CERT: '/etc/relay.pem',
        RELAY_STREAM_TLS_KEY: '/etc/relay.key',
      });
      expect(withTls.relayStreamHost).to.equal('10.0.0.5');
    });
  });

  describe('relay token channel', () => {
    const callId = 'call_0123456789abcdefghijklmnop';
    let saved: ReturnType<typeof config>;
    beforeEach(() => (saved = config())); // the harness's, set once the root hooks ran
    afterEach(() => setConfig(saved));

    it('takes a stream only with the session token and a fresh HMAC signature under the shared secret', async () => {
      setConfig({ ...saved, relayStreamSecret: 'shared-relay-secret' });
      const tokens: string[] = [];
      const server = relayTokenServer();
      try {
        const { url, token } = await server.register(callId, { token: (t) => tokens.push(t) });
        const path = new URL(url).pathname;
        const send = (headers: Record<string, string>) =>
          fetch(url, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, ...headers },
            body: '{"token":"Hello "}\n',
          }).then((r) => r.status);
        expect(await send({}), 'unsigned').to.equal(401);
        expect(await send({ 'Svc-Relay-Signature': `t=${Date.now()},v1=${'0'.repeat(64)}` }), 'wrong').to.equal(401);
        expect(await send({ 'Svc-Relay-Signature': relaySignature(path, Date.now() - 10 * 60_000) }), 'stale').to.equal(
          401,
        );
        const other = relaySignature(path);
        setConfig({ ...saved, relayStreamSecret: 'another-secret' });
        const foreign = relaySignature(path);
        setConfig({ ...saved, relayStreamSecret: 'shared-relay-secret' });
        expect(await send({ 'Svc-Relay-Signature': foreign }), 'another secret').to.equal(401);
        expect(tokens).to.deep.equal([]);
        expect(await send({ 'Svc-Relay-Signature': other })).to.equal(204);
        expect(tokens).to.deep.equal(['Hello ']);
      } finally {
        await server.close();
      }
    });

    it('does not listen on a host other than loopback without TLS', async () => {
      setConfig({ ...saved, relayStreamHost: '0.0.0.0', relayStreamTlsCert: undefined, relayStreamTlsKey: undefined });
      const server = relayTokenServer();
      try {
        let error: Error | undefined;
        await server.register(callId, { token: () => undefined }).catch((err: Error) => (error = err));
        expect(error?.message).to.match(/not loopback.*RELAY_STREAM_TLS_CERT/);
      } finally {
        await server.close();
      }
    });
  });
});
