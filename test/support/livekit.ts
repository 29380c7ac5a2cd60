/**
 * A real LiveKit server for the voice tests (test/integration/voice-rooms.test.ts, the browser test):
 * `livekit-server` built by scripts/build-infra.sh (the first time on a machine: 2-5 minutes), started on
 * loopback ports under the harness's data folder, and the service configured to use it (the API signs
 * room tokens, the in-process worker's assistant joins rooms) until `stop`.
 */
import path from 'node:path';
import { config, setConfig } from '../../src/config';
import { freePort, livekitBinary, startLiveKit } from '../../src/dev/infra';
import { h } from './harness';

export interface TestLiveKit {
  url: string;
  apiKey: string;
  apiSecret: string;
  /** Environment for a worker process (`startWorkerProcess`) that joins rooms on this server. */
  env: Record<string, string>;
  /** Restores the configuration and stops the server. */
  stop(): Promise<void>;
}

export async function startTestLiveKit(opts: { endOfTurnMs?: number } = {}): Promise<TestLiveKit> {
  const apiKey = 'APIvoicetest';
  const apiSecret = 'voice-test-secret-0123456789abcdef0123456789';
  const server = await startLiveKit(await livekitBinary(), {
    dataDir: path.join(h().dataDir, `livekit-${Date.now()}`),
    port: await freePort(),
    rtcTcpPort: await freePort(),
    rtcUdpPort: await freePort(),
    apiKey,
    apiSecret,
  });
  const saved = config();
  const endOfTurnMs = opts.endOfTurnMs ?? 400;
  setConfig({
    ...saved,
    livekitUrl: server.url,
    livekitApiKey: apiKey,
    livekitApiSecret: apiSecret,
    voiceEndOfTurnMs: endOfTurnMs,
  });
  return {
    url: server.url,
    apiKey,
    apiSecret,
    env: {
      LIVEKIT_URL: server.url,
      LIVEKIT_API_KEY: apiKey,
      LIVEKIT_API_SECRET: apiSecret,
      VOICE_END_OF_TURN_MS: String(endOfTurnMs),
    },
    async stop() {
      setConfig(saved);
      await server.stop();
    },
  };
}
