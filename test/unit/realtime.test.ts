/**
 * The realtime engine's pure parts: the SIP URI a realtime call's leg dials and the call id read back from
 * the webhook's SIP headers; the webhook verification of src/providers/openai-realtime.ts against the
 * Standard Webhooks signature the fake (and OpenAI) sends, both event names, and refusals.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { verifyRealtimeWebhook } from '../../src/providers/openai-realtime';
import { callIdOfSipHeaders, realtimeSipUri } from '../../src/shared/realtime';

const SECRET = `whsec_${Buffer.from('unit-test-secret-of-32-bytes!!!!').toString('base64')}`;

function signed(body: string, secret = SECRET, ageSeconds = 0): Record<string, string> {
  const id = 'msg_unit';
  const ts = String(Math.floor(Date.now() / 1000) - ageSeconds);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const sig = crypto.createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': `v1,${sig}` };
}

describe('realtime engine: SIP leg and webhook verification', () => {
  it('puts the call id in a custom header of the project SIP URI and reads it back', () => {
    const uri = realtimeSipUri('proj_abc', 'sip.api.openai.com', 'call_01xyz');
    expect(uri).to.equal('sip:proj_abc@sip.api.openai.com;transport=tls?X-Svc-Call-Id=call_01xyz');
    expect(callIdOfSipHeaders([{ name: 'x-svc-call-id', value: 'call_01xyz' }])).to.equal('call_01xyz');
    expect(callIdOfSipHeaders([{ name: 'From', value: 'sip:+1@x' }])).to.equal(null);
  });

  describe('verifyRealtimeWebhook', () => {
    let before: ReturnType<typeof config>;
    beforeEach(() => {
      before = config();
      setConfig({
        ...before,
        openaiRealtime: {
          projectId: 'proj_abc',
          webhookSecret: SECRET,
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: 'sk-x',
          model: 'gpt-realtime',
          sipHost: 'sip.api.openai.com',
        },
      });
    });
    afterEach(() => setConfig(before));

    const event = (type: string) =>
      JSON.stringify({
        id: 'evt_1',
        type,
        created_at: 1,
        data: { call_id: 'rtc_1', sip_headers: [{ name: 'X-Svc-Call-Id', value: 'call_1' }] },
      });

    it('reads both incoming-call event names and ignores other events', async () => {
      for (const type of ['realtime.call.incoming', 'live.transport.incoming']) {
        const body = event(type);
        const got = await verifyRealtimeWebhook(body, signed(body));
        expect(got).to.deep.equal({
          eventId: 'evt_1',
          openaiCallId: 'rtc_1',
          sipHeaders: [{ name: 'X-Svc-Call-Id', value: 'call_1' }],
        });
      }
      const other = event('response.completed');
      expect(await verifyRealtimeWebhook(other, signed(other))).to.equal(null);
    });

    it('refuses another secret, a changed body, a stale timestamp and missing headers', async () => {
      const body = event('realtime.call.incoming');
      const other = `whsec_${Buffer.from('another-secret-of-32-bytes!!!!!!').toString('base64')}`;
      const refused = async (b: string, h: Record<string, string>) => {
        try {
          await verifyRealtimeWebhook(b, h);
          return false;
        } catch {
          return true;
        }
      };
      expect(await refused(body, signed(body, other))).to.equal(true);
      expect(await refused(body.replace('rtc_1', 'rtc_2'), signed(body))).to.equal(true);
      expect(await refused(body, signed(body, SECRET, 600))).to.equal(true);
      expect(await refused(body, {})).to.equal(true);
    });
  });
});
