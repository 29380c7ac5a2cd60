/**
 * Installs the Temporal Core runtime once per process with the SDK's logs routed to winston at warn
 * and above (LOG_LEVEL=debug shows more). A second install is skipped, not an error.
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { logger } from '../logger';

let installed = false;

/** Installs the runtime (call before creating connections or workers); later calls do nothing. */
export function installRuntime(): void {
  if (installed) return;
  installed = true;
  const level: LogLevel = (process.env.LOG_LEVEL ?? '').toLowerCase() === 'debug' ? 'DEBUG' : 'WARN';
  try {
    Runtime.install({
      logger: new DefaultLogger(level, (entry) => {
        const lvl = entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : 'debug';
        logger.log(lvl, `temporal: ${entry.message}`, entry.meta);
      }),
    });
  } catch {
    // already installed by the host (tests)
  }
}
