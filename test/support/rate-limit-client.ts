/**
 * A second process counting requests in a rate-limit bucket, for the test that two processes never admit
 * more than the limit together (test/integration/api.test.ts). Environment: MONGODB_URI, BUCKET, LIMIT,
 * WINDOW_MS, REQUESTS (how many to count at once). Prints `{"allowed": n}` and exits.
 */
import { connectStore, disconnectStore } from '../../src/models/register';
import { consumeRateLimit } from '../../src/platform/rate-limit';

async function main(): Promise<void> {
  await connectStore(process.env.MONGODB_URI!);
  const results = await Promise.all(
    Array.from({ length: Number(process.env.REQUESTS) }, () =>
      consumeRateLimit(process.env.BUCKET!, Number(process.env.LIMIT), Number(process.env.WINDOW_MS)),
    ),
  );
  process.stdout.write(JSON.stringify({ allowed: results.filter((r) => r.allowed).length }) + '\n');
  await disconnectStore();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
