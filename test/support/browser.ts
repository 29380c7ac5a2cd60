/**
 * Headless Chromium for the browser tests: Debian's package (installed by scripts/install-chromium.sh
 * when missing) driven by `playwright-core`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Launches headless Chromium; `args` are added to `--no-sandbox` (CI runs as root, where the sandbox refuses to start). */
export async function launchChromium(args: string[] = [], options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = execFileSync('bash', [path.resolve(__dirname, '../../../scripts/install-chromium.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return chromium.launch({ executablePath, headless: true, ...options, args: ['--no-sandbox', ...args] });
}
