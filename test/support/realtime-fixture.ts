/**
 * The realtime engine tests' shared setup: the loopback fake of OpenAI's Realtime API
 * (test/support/fake-openai-realtime.ts) with its webhook aimed at the harness's API, an HTTPS receiver for
 * the organization's http tools, and the service's Realtime project pointed at the fake (what
 * `OPENAI_REALTIME_*` give a deployment, src/config.ts `RealtimeConfig`).
 */
import { config, setConfig, type RealtimeConfig } from '../../src/config';
import { startFakeRealtime, type FakeRealtime, type FakeRealtimeTiming } from './fake-openai-realtime';
import { h } from './harness';
import { startHttpsReceiver, type HttpsReceiver } from './https-receiver';

/** The service's Realtime project as the fake `fake` serves it (its REST, socket, simulator and webhook key). */
export function fakeRealtimeProject(fake: FakeRealtime): RealtimeConfig {
  return {
    projectId: 'proj_fake',
    webhookSecret: fake.webhookSecret,
    baseUrl: fake.baseUrl,
    apiKey: 'sk-realtime-fake',
    model: 'gpt-realtime',
    sipHost: 'sip.api.openai.com',
    simulatorUrl: fake.simulatorUrl,
  };
}

/** What `useFakeRealtime` gives its block: filled by its `before`. */
export interface RealtimeFixture {
  fake: FakeRealtime;
  receiver: HttpsReceiver;
  /**
   * Runs `fn` with the fake as the operator's Realtime project; the configuration read right before is
   * restored after, whatever `fn` does.
   */
  withRealtime<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Called inside a mocha `describe`: its `before` starts the fake (at `timing`'s pace when given; the
 * webhook sent to the harness's `/openai/realtime/webhook`) and an HTTPS receiver, its `after` closes both.
 * @returns the block's fixture (its `fake` and `receiver` set once `before` ran)
 */
export function useFakeRealtime(timing?: FakeRealtimeTiming): RealtimeFixture {
  const fixture = {
    withRealtime: async <T>(fn: () => Promise<T>): Promise<T> => {
      const saved = config();
      setConfig({ ...saved, openaiRealtime: fakeRealtimeProject(fixture.fake) });
      try {
        return await fn();
      } finally {
        setConfig(saved);
      }
    },
  } as RealtimeFixture;
  before(async () => {
    fixture.fake = await startFakeRealtime();
    fixture.fake.webhookUrl = `${h().api.url}/openai/realtime/webhook`;
    if (timing) fixture.fake.timing = timing;
    fixture.receiver = await startHttpsReceiver();
  });
  after(async () => {
    await fixture.fake?.close();
    await fixture.receiver?.close();
  });
  return fixture;
}
