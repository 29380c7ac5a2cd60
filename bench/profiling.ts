/**
 * What the benchmarks that run the service in their own process (bench/calls.ts, bench/voice.ts) watch
 * of it besides their figures: a CPU profile of the process, and the store commands it sends.
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import mongoose from 'mongoose';

/**
 * Profiles this process (the API, the worker when in-process, and the benchmark's client) with the V8
 * inspector until `stopTo(file)`, which writes a `.cpuprofile` (Chrome DevTools' format), sampled every 200 µs.
 */
export async function startCpuProfile(): Promise<{ stopTo: (file: string) => Promise<void> }> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    stopTo: async (file) => {
      const { profile } = await post('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * Counts the store commands this process sends (the driver's command monitoring, switched on for the
 * count) until `stop()`, which answers the count per `collection.command` (e.g. `call_turns.insert`) and
 * leaves the monitoring as it found it (src/models/register.ts `connectStore` has it on for the store's
 * command metrics).
 */
export function countCommands(): { stop: () => Record<string, number> } {
  const client = mongoose.connection.getClient() as unknown as ReturnType<typeof mongoose.connection.getClient> & {
    monitorCommands: boolean;
  };
  const monitored = client.monitorCommands;
  const counts: Record<string, number> = {};
  const seen = (e: { commandName: string; command: Record<string, unknown> }) => {
    const key = `${String(e.command[e.commandName])}.${e.commandName}`;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  client.monitorCommands = true;
  client.on('commandStarted', seen);
  return {
    stop: () => {
      client.off('commandStarted', seen);
      client.monitorCommands = monitored;
      return counts;
    },
  };
}
