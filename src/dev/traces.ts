/**
 * `npm start -- --traces`: Jaeger v2 as the development tracing backend (src/dev/infra.ts `startJaeger`,
 * built once per machine by scripts/build-infra.sh), its data under `DATA_DIR/jaeger` (kept in memory:
 * traces go with the process). Traces are sent there through the standard variable
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`), and the console links a call to its trace (`TRACES_URL_TEMPLATE`,
 * unless set: the query API's JSON of the trace, `/api/traces/{trace_id}`, since a Jaeger built from the Go
 * module serves a placeholder page where the release's web UI would be: its UI assets are built apart).
 * Ports: OTLP/HTTP 4318, query API 16686, gRPC query 16685 (Jaeger's own defaults).
 */
import path from 'node:path';
import type { Config } from '../config';
import { jaegerBinary, portInUse, startJaeger, type ChildServer } from './infra';

/** The command-line flag of `npm start` that starts Jaeger. */
export const TRACES_FLAG = '--traces';

const PORTS = { otlpPort: 4318, queryPort: 16686, grpcPort: 16685 };

/**
 * Builds (first time) and starts Jaeger, adds it to `children` (stopped with the others), points the
 * OpenTelemetry exporter at it and the console's trace link at its query API.
 * @returns the address of a trace in Jaeger's query API (`…/api/traces/<trace_id>`)
 * @throws Error naming the port when one of Jaeger's ports is taken
 */
export async function startDevTraces(cfg: Config, children: ChildServer[]): Promise<string> {
  for (const [name, port] of Object.entries(PORTS))
    if (await portInUse(port))
      throw new Error(`--traces: port ${port} (Jaeger's ${name}) is in use; stop what listens there first`);
  const binary = await jaegerBinary();
  const jaeger = await startJaeger(binary, { dataDir: path.join(cfg.dataDir, 'jaeger'), ...PORTS });
  children.push(jaeger);
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpEndpoint;
  const query = `http://localhost:${PORTS.queryPort}/api/traces/`;
  cfg.tracesUrlTemplate ??= `${query}{trace_id}`;
  return `${query}<trace_id>`;
}
