/**
 * The demo organization that `npm start` seeds on its first start: an organization, a test-mode secret
 * key, a test-mode publishable key and a demo agent. The keys are kept (only) in
 * `<DATA_DIR>/demo-keys.json`, mode 0600, so later starts can print them again; the database holds
 * only their hashes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from '../models/agents';
import { Org } from '../models/orgs';
import { createKey, createOrg } from '../keys';
import { newId } from '../shared/ids';
import { User } from '../models/users';
import { createUser, resetPassword } from '../services/users';

export interface DemoSeed {
  org_id: string;
  agent_id: string;
  secret_key: string;
  publishable_key: string;
  created_now: boolean;
}

/** Seeds the demo organization if absent (or its key file is gone) and returns its keys. */
export async function seedDemo(dataDir: string): Promise<DemoSeed> {
  const file = path.join(dataDir, 'demo-keys.json');
  const org = await Org.findOne({ demo: true }).lean();
  if (org && fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoSeed;
    if (saved.org_id === org._id) return { ...saved, created_now: false };
  }
  const orgId = org?._id ?? (await createOrg('Demo organization', { demo: true })).id;
  const secret = await createKey({ orgId, mode: 'test', kind: 'secret', name: 'demo secret key' });
  const publishable = await createKey({ orgId, mode: 'test', kind: 'publishable', name: 'demo publishable key' });
  const existingAgent = await Agent.findOne({ org_id: orgId, livemode: false }).sort({ _id: 1 }).lean();
  let agentId = existingAgent?._id;
  if (!agentId) {
    const doc = {
      _id: newId('agt'),
      org_id: orgId,
      livemode: false,
      name: 'Demo Assistant',
      instructions: 'You are a friendly assistant calling to confirm an appointment. Be brief and polite.',
      first_message: 'Hello! This is the demo assistant calling about your appointment.',
      model: null,
      transfer_to: '+14155550199',
      metadata_json: '{}',
      created: Math.floor(Date.now() / 1000),
    };
    await Agent.create(doc);
    agentId = doc._id;
  }
  const seed: DemoSeed = {
    org_id: orgId,
    agent_id: agentId,
    secret_key: secret.key,
    publishable_key: publishable.key,
    created_now: true,
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(seed, null, 2), { mode: 0o600 });
  return seed;
}

/** The demo organization's console admin as `npm start` prints it. */
export interface DemoUser {
  user_id: string;
  email: string;
  password: string;
  created_now: boolean;
}

/** The demo admin's email address ("`npm start` creates a demo admin"). */
export const DEMO_ADMIN_EMAIL = 'admin@demo.example';

/**
 * Creates the demo organization's console admin on the first start (a generated password, kept with the
 * keys in `<DATA_DIR>/demo-console.json`, mode 0600, so later starts print it again; the database holds
 * only its scrypt hash). When the file is gone but the user exists, its password is reset (and written
 * again); a disabled demo admin is left as it is and not printed (null).
 */
export async function seedDemoUser(dataDir: string, orgId: string): Promise<DemoUser | null> {
  const file = path.join(dataDir, 'demo-console.json');
  const existing = await User.findOne({ email: DEMO_ADMIN_EMAIL }).lean();
  if (existing?.disabled) return null;
  if (existing && fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoUser;
    if (saved.user_id === existing._id) return { ...saved, created_now: false };
  }
  const user = existing
    ? await resetPassword(existing._id)
    : await createUser({ orgId, email: DEMO_ADMIN_EMAIL, role: 'admin' });
  const seed: DemoUser = { user_id: user.id, email: user.email, password: user.password!, created_now: true };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(seed, null, 2), { mode: 0o600 });
  return seed;
}
