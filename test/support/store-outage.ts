/**
 * Tests that stop the store (test/integration/outages.test.ts, test/integration/ride-through.test.ts) run
 * their own FerretDB: `seedOrgWithKey` writes an organization and a test-mode secret key into it directly,
 * with a connection of its own (the harness's mongoose stays on the harness's store).
 */
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import { hashKey } from '../../src/keys';
import { newId } from '../../src/shared/ids';

/** Writes an organization named `name` and a test-mode secret key of it into the store at `uri`. */
export async function seedOrgWithKey(uri: string, name: string): Promise<{ orgId: string; key: string }> {
  const conn = await mongoose.createConnection(uri).asPromise();
  const orgId = newId('org');
  const key = `svc_sk_test_${crypto.randomBytes(16).toString('hex')}`;
  try {
    await conn.collection('orgs').insertOne({ _id: orgId as never, name, demo: false, created: 1 });
    await conn.collection('api_keys').insertOne({
      _id: newId('key') as never,
      org_id: orgId,
      livemode: false,
      kind: 'secret',
      scopes: [],
      hash: hashKey(key),
      redacted: 'svc_sk_test_…',
      name: null,
      created: 1,
      revoked: null,
    });
  } finally {
    await conn.close();
  }
  return { orgId, key };
}
