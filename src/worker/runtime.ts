/**
 * Installs the Temporal Core runtime once per process: the SDK's logs routed to winston (warn and above;
 * LOG_LEVEL=debug shows more) and, when asked, its metrics exported in Prometheus format on a loopback
 * port, which src/platform/metrics.ts appends to the process's `/metrics`
 * (https://typescript.temporal.io/api/interfaces/worker.PrometheusMetricsExporter). A second install is
 * skipped, not an error.
 */
import net from 'node:net';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { logger } from '../logger';
import { setCoreMetricsUrl } from '../platform/metrics';

let installed = false;

export interface RuntimeOptions {
  /**
   * `host:port` for the SDK's Prometheus exporter (loopback: it is scraped through our `/metrics`,
   * which applies METRICS_TOKEN). Unset: no SDK metrics.
   */
  prometheusAddress?: string;
  /** Lowest SDK log level routed to winston (default WARN, DEBUG with LOG_LEVEL=debug). */
  logLevel?: LogLevel;
}

/** Installs the runtime (call before creating connections or workers); later calls do nothing. */
export function installRuntime(opts: RuntimeOptions = {}): void {
  if (installed) return;
  installed = true;
  const level: LogLevel = opts.logLevel ?? ((process.env.LOG_LEVEL ?? '').toLowerCase() === 'debug' ? 'DEBUG' : 'WARN');
  try {
    Runtime.install({
      logger: new DefaultLogger(level, (entry) => {
        const lvl = entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : 'debug';
        logger.log(lvl, `temporal: ${entry.message}`, entry.meta);
      }),
      ...(opts.prometheusAddress
        ? {
            telemetryOptions: {
              metrics: { prometheus: { bindAddress: opts.prometheusAddress, useSecondsForDurations: true } },
            },
          }
        : {}),
    });
    if (opts.prometheusAddress) setCoreMetricsUrl(`http://${opts.prometheusAddress}/metrics`);
  } catch {
    // already installed by the host (tests)
  }
}

/** `127.0.0.1:<port>` with a port free right now, for the SDK's Prometheus exporter. */
export async function freeLoopbackAddress(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(`127.0.0.1:${port}`));
    });
  });
}
