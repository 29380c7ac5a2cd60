/**
 * `svcctl`: administration from the shell, JSON on stdout (DESIGN.md section 4). Uses the same MongoDB
 * as `npm start` by default (`MONGODB_URI`, else the embedded FerretDB on 127.0.0.1:FERRETDB_PORT, 27017).
 *
 *   svcctl orgs create --name N                         → {"id":"org_…","object":"organization",…}
 *   svcctl orgs list                                    → [{…}]
 *   svcctl keys create --org ORG --mode test|live --kind secret|restricted|publishable [--scopes a:read,b:write] [--name N]
 *                                                       → {"id":"key_…","key":"svc_sk_test_…",…} (the only time the key is shown)
 *   svcctl keys list --org ORG                          → [{"id":"key_…","redacted_key":"svc_sk_test_…a1b2",…}]
 *   svcctl keys revoke KEY_ID                           → {"id":"key_…","revoked":<unix>,…}
 *   svcctl bulk-calls watch BULK_ID [--interval-ms N]   progress bar on stderr until the campaign is over,
 *                                                       then → {"id":"bulk_…","object":"bulk_call",…}
 *   svcctl widget configure --org ORG [--allowed-origins https://a.example,https://b.example] [--require-identity | --no-require-identity] [--squad-id SQD | --no-squad] [--squad-id SQD | --no-squad]
 *                                                       → {"object":"widget_settings",…}; the first time also
 *                                                         `identity_secret` (shown once)
 *   svcctl widget rotate-secret --org ORG               → {"object":"widget_settings","identity_secret":"wsec_…",…}
 *                                                         (shown once; the previous secret verifies 24 h more)
 *   svcctl limits set --org ORG --mode test|live --max-concurrent-calls N
 *                                                       → {"object":"limits","org":"org_…","mode":"live","max_concurrent_calls":N}
 *                                                         (N an integer 1–1000; the org's calls live at once in that mode)
 *   svcctl limits get --org ORG                         → {"object":"limits","org":"org_…","live":{"max_concurrent_calls":10},"test":{…}}
 *   svcctl pace set --org ORG --calls-per-second N     → {"object":"pace","org":"org_…","calls_per_second":N}
 *                                                         (N an integer 1–100: the CPS Twilio gives the org's account;
 *                                                         its live dials are paced at it, src/services/dial-pace.ts)
 *   svcctl pace get --org ORG                           → {"object":"pace","org":"org_…","calls_per_second":1}
 *   svcctl quotas set --org ORG [--llm-tokens-per-day N|default] [--test-suite-runs-per-day N|default] [--analysis-reruns-per-day N|default]
 *                                                       → {"object":"quotas","org":"org_…","llm_tokens_per_day":{"limit":N,"used":…},…,"resets_at":<unix>}
 *                                                         (N an integer 0–10^12 per UTC day, both modes together; default: the operator's QUOTA_* value)
 *   svcctl quotas get --org ORG                         → the same, unchanged
 *   svcctl recordings set-retention --org ORG --days N|none
 *                                                       → {"object":"recording_retention","org":"org_…","recording_retention_days":N}
 *                                                         (N an integer 1–3650: recordings older are deleted; none keeps them)
 *   svcctl recordings get-retention --org ORG           → {"object":"recording_retention",…}
 *   svcctl dnc load FILE                                → {"object":"national_dnc_registry","numbers":N}: FILE, a
 *                                                         full list of the US National Do Not Call Registry (one
 *                                                         `AAA,NNNNNNN` a line), replaces the registry copy every
 *                                                         organization's dials are checked against; a malformed
 *                                                         line is refused by its number, nothing changed
 *   svcctl users create --org ORG --email E --role admin|agent|viewer [--password P]
 *                                                       → {"id":"usr_…","object":"user",…} (+ `password` when
 *                                                         generated: shown once)
 *   svcctl users list --org ORG                         → [{"id":"usr_…","email":…,"role":…,"disabled":false,…}]
 *   svcctl users disable --id USR                       → the user, `disabled: true`; their console sessions end
 *   svcctl users reset-password --id USR [--password P] → the user (+ `password` when generated); sessions end
 *   svcctl dialing allow-number-types --org ORG --types premium_rate,shared_cost,personal_number,non_geographic|none
 *                                                       → {"object":"dialing_permissions","org":"org_…","allowed_number_types":[…]}
 *                                                         (replaces the list: the high-cost number types the
 *                                                         organization may call, src/shared/dialing.ts; none: no type)
 *   svcctl dialing get --org ORG                        → {"object":"dialing_permissions","org":"org_…","live":{…},"test":{…}}
 *   svcctl usage rebuild                                → {"object":"usage_rollups","folded":N}: adds to the per-day
 *                                                         usage rollups every usage row not in them yet (rows from
 *                                                         before rollups, rows whose writer crashed) and rebuilds
 *                                                         each day's sums (`day:` twins) from its quarter-hours;
 *                                                         idempotent
 *
 *   svcctl deploy status [--deployment NAME]            → {"object":"worker_deployment","current_build_id":…,"versions":[…]}
 *   svcctl deploy promote --build-id B [--deployment NAME]
 *                                                       → the same, B now current (Worker Versioning: src/cli/deploy.ts)
 *   svcctl deploy drain --build-id A [--deployment NAME] [--wait] [--timeout-s N]
 *                                                       → {"object":"worker_deployment_version_drainage","open_workflows":N,"drained":bool,…}
 *
 * The widget commands seal the identity secret with SECRETS_KEY, else with the key `npm start` keeps in
 * DATA_DIR/secrets.key (the same one the API opens it with).
 *
 *   svcctl --help | svcctl GROUP [ACTION] --help   the usage (of every command, or of the group's), on stdout, exit 0
 *
 * Errors: a message on stderr as JSON `{"error":{"message"}}` and exit code 1 (2 for usage errors). A
 * store that does not answer names the address tried and the variables that chose it (`storeAddress`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { config, setConfig } from '../config';
import { configureWidget, normalizeOrigin, rotateWidgetSecret } from '../services/widget';
import { checkCallLimit, orgCallLimits, setOrgCallLimit } from '../services/limits';
import { checkCallsPerSecond, orgCallsPerSecond, setOrgCallsPerSecond } from '../services/dial-pace';
import { loadNationalRegistry } from '../services/do-not-call';
import { backfillUsageRollups } from '../services/usage-rollups';
import { checkQuotaValue, orgQuotas, QUOTAS, setOrgQuotas, type QuotaName } from '../services/quotas';
import { checkRetentionDays, recordingRetention, setRecordingRetention } from '../services/recordings';
import { notifyLimitChanged } from '../services/call-slots';
import { Org } from '../models/orgs';
import { orgDialingPermissions, setAllowedNumberTypes } from '../services/dialing-permissions';
import { HIGH_COST_NUMBER_TYPES, isHighCostNumberType } from '../shared/dialing';
import { connectStore, disconnectStore } from '../models/register';
import { watchBulkCall } from './bulk-calls-watch';
import { deployCommand, DeployUsageError } from './deploy';
import { createKey, createOrg, listKeys, revokeKey, type KeyKind } from '../keys';
import { createUser, disableUser, listUsers, resetPassword } from '../services/users';
import { USER_ROLES } from '../models/users';

const USAGE = `usage:
  svcctl orgs create --name NAME
  svcctl orgs list
  svcctl keys create --org ORG --mode test|live --kind secret|restricted|publishable [--scopes a:read,b:write] [--name NAME]
  svcctl keys list --org ORG
  svcctl keys revoke KEY_ID
  svcctl bulk-calls watch BULK_ID [--interval-ms 1000]
  svcctl widget configure --org ORG [--allowed-origins https://a.example,https://b.example] [--require-identity | --no-require-identity]
  svcctl widget rotate-secret --org ORG
  svcctl limits set --org ORG --mode test|live --max-concurrent-calls N   (N: 1–1000)
  svcctl limits get --org ORG
  svcctl pace set --org ORG --calls-per-second N   (N: 1–100, the account's CPS at Twilio)
  svcctl pace get --org ORG
  svcctl quotas set --org ORG [--llm-tokens-per-day N|default] [--test-suite-runs-per-day N|default] [--analysis-reruns-per-day N|default]
  svcctl quotas get --org ORG
  svcctl recordings set-retention --org ORG --days N|none   (N: 1–3650)
  svcctl recordings get-retention --org ORG
  svcctl dnc load FILE   (the National Do Not Call Registry's full list: AAA,NNNNNNN a line)
  svcctl users create --org ORG --email EMAIL --role admin|agent|viewer [--password P]
  svcctl users list --org ORG
  svcctl users disable --id USER_ID
  svcctl users reset-password --id USER_ID [--password P]
  svcctl dialing allow-number-types --org ORG --types premium_rate,shared_cost,personal_number,non_geographic|none
  svcctl dialing get --org ORG
  svcctl usage rebuild
  svcctl deploy status [--deployment NAME]
  svcctl deploy promote --build-id BUILD_ID [--deployment NAME]
  svcctl deploy drain --build-id BUILD_ID [--deployment NAME] [--wait] [--timeout-s 3600]`;

class UsageError extends Error {}

/** Asked for help: `--help`, `-h` or `help` in place of the group. */
class HelpRequest {
  constructor(readonly text: string) {}
}

/**
 * The usage of `group` (and `action`) when the command line asks for help (`svcctl --help`, `svcctl -h`,
 * `svcctl help [GROUP]`, `svcctl GROUP [ACTION] --help`), else `undefined`: every command's lines, or the
 * lines of the named group and action.
 * @throws UsageError when help is asked of a command that does not exist
 */
export function helpText(argv: string[]): string | undefined {
  const wantsHelp = argv.some((a) => a === '--help' || a === '-h') || argv[0] === 'help';
  if (!wantsHelp) return undefined;
  const words = argv.filter((a) => !a.startsWith('-') && a !== 'help').slice(0, 2);
  if (words.length === 0) return USAGE;
  const lines = USAGE.split('\n')
    .slice(1)
    .filter((line) => {
      const tokens = line.trim().split(/\s+/).slice(1); // after `svcctl`
      return words.every((w, i) => tokens[i] === w);
    });
  if (lines.length === 0) throw new UsageError(`unknown command: ${words.join(' ')}`);
  return ['usage:', ...lines].join('\n');
}

/**
 * The store svcctl uses and where that address came from: `MONGODB_URI`, else the embedded FerretDB that
 * `npm start` runs on 127.0.0.1:`FERRETDB_PORT` (27017 by default).
 */
export function storeAddress(env: NodeJS.ProcessEnv = process.env): { uri: string; source: string } {
  if (env.MONGODB_URI) return { uri: env.MONGODB_URI, source: 'MONGODB_URI' };
  const port = env.FERRETDB_PORT || '27017';
  return {
    uri: `mongodb://127.0.0.1:${port}/svc`,
    source: env.FERRETDB_PORT
      ? 'FERRETDB_PORT (MONGODB_URI is not set)'
      : 'the default: neither MONGODB_URI nor FERRETDB_PORT is set',
  };
}

/** `uri` without its password, for messages. */
function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]+):[^@/]*@/, '$1:***@');
}

/** The options every command may take (`parseArgs`); each command reads the ones it needs. */
const OPTIONS = {
  name: { type: 'string' },
  org: { type: 'string' },
  mode: { type: 'string' },
  kind: { type: 'string' },
  scopes: { type: 'string' },
  'interval-ms': { type: 'string' },
  'allowed-origins': { type: 'string' },
  'require-identity': { type: 'boolean' },
  'no-require-identity': { type: 'boolean' },
  'squad-id': { type: 'string' },
  'no-squad': { type: 'boolean' },
  'max-concurrent-calls': { type: 'string' },
  'calls-per-second': { type: 'string' },
  'llm-tokens-per-day': { type: 'string' },
  'test-suite-runs-per-day': { type: 'string' },
  'analysis-reruns-per-day': { type: 'string' },
  days: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  id: { type: 'string' },
  types: { type: 'string' },
  deployment: { type: 'string' },
  'build-id': { type: 'string' },
  wait: { type: 'boolean' },
  'timeout-s': { type: 'string' },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>
>['values'];
type RequiredOption = 'name' | 'org' | 'mode' | 'kind' | 'email' | 'role' | 'id';

/** What one command gets: its parsed options and positionals, and the helpers that check and connect. */
interface Command {
  values: Values;
  positionals: string[];
  /** The option's value; throws UsageError when it is missing. */
  need: (name: RequiredOption) => string;
  /** `--mode`, which must be `test` or `live` (UsageError otherwise). */
  needMode: () => 'test' | 'live';
  /** Connects to the store (`storeAddress`); the error names the address tried and where it came from. */
  connect: () => Promise<void>;
}

/**
 * Runs the command line `argv` (without `node svcctl`) and returns what to print as JSON, or a
 * `HelpRequest`. Commands are looked up by `GROUP ACTION` in `COMMANDS`.
 * @throws UsageError for an unknown command or a missing or malformed option (exit 2), Error otherwise (exit 1)
 */
async function run(argv: string[]): Promise<unknown> {
  const help = helpText(argv);
  if (help !== undefined) return new HelpRequest(help);
  const [group, action, ...rest] = argv;
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: OPTIONS });
  const need = (name: RequiredOption) => {
    const v = values[name];
    if (!v) throw new UsageError(`--${name} is required`);
    return v;
  };
  const needMode = (): 'test' | 'live' => {
    const mode = need('mode');
    if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live');
    return mode;
  };
  const command = COMMANDS[`${group} ${action}`];
  if (!command) throw new UsageError(`unknown command: ${[group, action].filter(Boolean).join(' ') || '(none)'}`);
  return command({ values, positionals, need, needMode, connect: connectToStore });
}

/** Connects to the store `storeAddress` names; the error says which address and which variable chose it. */
async function connectToStore(): Promise<void> {
  const store = storeAddress();
  try {
    await connectStore(store.uri);
  } catch (err) {
    throw new Error(
      `The store at ${redactUri(store.uri)} did not answer (${(err as Error).message}); the address comes from ${store.source}. Set MONGODB_URI (or FERRETDB_PORT for the embedded FerretDB of \`npm start\`) to the store the API uses.`,
      { cause: err },
    );
  }
}

/** `--scopes a:read,b:write` as a list; absent: undefined (the kind's default scopes). */
function scopeList(given: string | undefined): string[] | undefined {
  return given
    ? given
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
}

/** An option of plain decimal digits as a number, else NaN: `Number` would also take ' 5 ', '1e2' and '0x10'. */
function decimal(given: string): number {
  return /^-?\d+(\.\d+)?$/.test(given) ? Number(given) : NaN;
}

/** The commands, by `GROUP ACTION`; each checks its options before it connects (a usage error needs no store). */
const COMMANDS: Record<string, (c: Command) => Promise<unknown>> = {
  'orgs create': async ({ need, connect }) => {
    const name = need('name');
    await connect();
    return createOrg(name);
  },
  'orgs list': async ({ connect }) => {
    await connect();
    const orgs = await Org.find().sort({ _id: -1 }).lean();
    return orgs.map((o) => ({ id: o._id, object: 'organization', name: o.name, created: o.created }));
  },
  'keys create': async ({ values, need, needMode, connect }) => {
    const org = need('org');
    const mode = needMode();
    const kind = need('kind');
    if (!['secret', 'restricted', 'publishable'].includes(kind))
      throw new UsageError('--kind must be secret, restricted or publishable');
    await connect();
    return createKey({ orgId: org, mode, kind: kind as KeyKind, scopes: scopeList(values.scopes), name: values.name });
  },
  'keys list': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return listKeys(org);
  },
  'keys revoke': async ({ positionals, connect }) => {
    const id = positionals[0];
    if (!id) throw new UsageError('KEY_ID is required');
    await connect();
    const key = await revokeKey(id);
    if (!key) throw new Error(`No such key: ${id}`);
    return key;
  },
  'bulk-calls watch': async ({ values, positionals, connect }) => {
    const id = positionals[0];
    if (!id) throw new UsageError('BULK_ID is required');
    const intervalMs = Number(values['interval-ms'] ?? 1000);
    if (!Number.isInteger(intervalMs) || intervalMs < 50) throw new UsageError('--interval-ms must be an integer ≥ 50');
    await connect();
    return watchBulkCall(id, { intervalMs, out: process.stderr });
  },
  'widget configure': (c) => widgetCommand(c, 'configure'),
  'widget rotate-secret': (c) => widgetCommand(c, 'rotate-secret'),
  'limits set': async ({ values, need, needMode, connect }) => {
    const org = need('org');
    const mode = needMode();
    const given = values['max-concurrent-calls'];
    if (!given) throw new UsageError('--max-concurrent-calls is required');
    const n = decimal(given);
    try {
      checkCallLimit(n, `'${given}'`);
    } catch (err) {
      throw new UsageError(`--max-concurrent-calls: ${(err as Error).message}`);
    }
    await connect();
    const limits = await setOrgCallLimit(org, mode, n);
    // Running calls waiting in line see a raise at once when Temporal is reachable; else with the next request.
    if (!(await notifyLimitChanged(org, mode === 'live', n)))
      process.stderr.write('svcctl: Temporal not reachable; the new limit applies from the next call\n');
    return limits;
  },
  'limits get': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return orgCallLimits(org);
  },
  'pace set': async ({ values, need, connect }) => {
    const org = need('org');
    const given = values['calls-per-second'];
    if (!given) throw new UsageError('--calls-per-second is required');
    const n = decimal(given);
    try {
      checkCallsPerSecond(n, `'${given}'`);
    } catch (err) {
      throw new UsageError(`--calls-per-second: ${(err as Error).message}`);
    }
    await connect();
    return setOrgCallsPerSecond(org, n);
  },
  'pace get': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return orgCallsPerSecond(org);
  },
  'quotas set': async ({ values, need, connect }) => {
    const org = need('org');
    const caps: Partial<Record<QuotaName, number | null>> = {};
    const options = {
      llm_tokens_per_day: 'llm-tokens-per-day',
      test_suite_runs_per_day: 'test-suite-runs-per-day',
      analysis_reruns_per_day: 'analysis-reruns-per-day',
    } as const satisfies Record<QuotaName, keyof typeof OPTIONS>;
    for (const quota of QUOTAS) {
      const option = options[quota];
      const given = values[option];
      if (given === undefined) continue;
      try {
        caps[quota] = given === 'default' ? null : checkQuotaValue(decimal(given), `'${given}'`);
      } catch (err) {
        throw new UsageError(`--${option}: ${(err as Error).message}`);
      }
    }
    if (Object.keys(caps).length === 0)
      throw new UsageError(
        'give at least one of --llm-tokens-per-day, --test-suite-runs-per-day, --analysis-reruns-per-day',
      );
    await connect();
    return setOrgQuotas(org, caps);
  },
  'quotas get': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return orgQuotas(org);
  },
  'recordings set-retention': async ({ values, need, connect }) => {
    const org = need('org');
    const given = values.days;
    if (!given) throw new UsageError('--days is required (a number of days, or none)');
    const days = given === 'none' ? null : decimal(given);
    try {
      checkRetentionDays(days, `'${given}'`);
    } catch (err) {
      throw new UsageError(`--days: ${(err as Error).message}`);
    }
    await connect();
    return setRecordingRetention(org, days);
  },
  'usage rebuild': async ({ connect }) => {
    await connect();
    return { object: 'usage_rollups', folded: await backfillUsageRollups({ force: true }) };
  },
  'recordings get-retention': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return recordingRetention(org);
  },
  'dnc load': async ({ positionals, connect }) => {
    const file = positionals[0];
    if (!file) throw new UsageError("FILE is required (the registry's full list, one AAA,NNNNNNN a line)");
    if (!fs.existsSync(file)) throw new UsageError(`FILE ${file} does not exist`);
    await connect();
    const { numbers } = await loadNationalRegistry(file);
    return { object: 'national_dnc_registry', numbers };
  },
  'dialing allow-number-types': async ({ values, need, connect }) => {
    const org = need('org');
    const given = values.types;
    if (!given) throw new UsageError(`--types is required (${HIGH_COST_NUMBER_TYPES.join(',')}, or none)`);
    const types = given === 'none' ? [] : given.split(',').map((t) => t.trim());
    const unknown = types.filter((t) => !isHighCostNumberType(t));
    if (unknown.length)
      throw new UsageError(`--types: unknown ${unknown.join(', ')} (known: ${HIGH_COST_NUMBER_TYPES.join(', ')})`);
    await connect();
    return setAllowedNumberTypes(org, types.filter(isHighCostNumberType));
  },
  'dialing get': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return orgDialingPermissions(org);
  },
  'users create': async ({ values, need, connect }) => {
    const input = { orgId: need('org'), email: need('email'), role: need('role'), password: values.password };
    if (!(USER_ROLES as readonly string[]).includes(input.role))
      throw new UsageError(`--role must be one of ${USER_ROLES.join(', ')}`);
    await connect();
    return createUser(input);
  },
  'users list': async ({ need, connect }) => {
    const org = need('org');
    await connect();
    return listUsers(org);
  },
  'users disable': async ({ need, connect }) => {
    const id = need('id');
    await connect();
    return disableUser(id);
  },
  'deploy status': (c) => deploy(c, 'status'),
  'deploy promote': (c) => deploy(c, 'promote'),
  'deploy drain': (c) => deploy(c, 'drain'),
  'users reset-password': async ({ values, need, connect }) => {
    const id = need('id');
    await connect();
    return resetPassword(id, values.password);
  },
};

/**
 * `svcctl widget configure|rotate-secret --org ORG …`: the organization must exist; `configure` takes
 * `--allowed-origins` (comma-separated origins, each normalized; a malformed one is a usage error) and at
 * most one of `--require-identity` / `--no-require-identity`, and at most one of `--squad-id SQD` (the
 * squad answering the widget's new conversations in the squad's mode: src/services/widget.ts) / `--no-squad`.
 */
async function widgetCommand(
  { values, need, connect }: Command,
  action: 'configure' | 'rotate-secret',
): Promise<unknown> {
  const org = need('org');
  useSecretsKey();
  await connect();
  if (!(await Org.findById(org).lean())) throw new Error(`No such organization: ${org}`);
  if (action === 'rotate-secret') return rotateWidgetSecret(org);
  if (values['require-identity'] && values['no-require-identity'])
    throw new UsageError('give --require-identity or --no-require-identity, not both');
  if (values['squad-id'] !== undefined && values['no-squad'])
    throw new UsageError('give --squad-id or --no-squad, not both');
  let allowedOrigins: string[] | undefined;
  if (values['allowed-origins'] !== undefined) {
    try {
      allowedOrigins = values['allowed-origins']
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map(normalizeOrigin);
    } catch (err) {
      throw new UsageError(`--allowed-origins: ${(err as Error).message}`);
    }
  }
  return configureWidget(org, {
    allowedOrigins,
    requireIdentity: values['require-identity'] ? true : values['no-require-identity'] ? false : undefined,
    squadId: values['no-squad'] ? null : values['squad-id'],
  });
}

/** `svcctl deploy ACTION` (src/cli/deploy.ts): Temporal only, no store. */
async function deploy({ values }: Command, action: 'status' | 'promote' | 'drain'): Promise<unknown> {
  const timeout = values['timeout-s'];
  try {
    return await deployCommand(action, {
      deployment: values.deployment,
      buildId: values['build-id'],
      wait: values.wait,
      timeoutS: timeout === undefined ? undefined : decimal(timeout),
    });
  } catch (err) {
    throw err instanceof DeployUsageError ? new UsageError(err.message) : err;
  }
}

/** SECRETS_KEY from the environment, else the development key `npm start` keeps in DATA_DIR/secrets.key. */
function useSecretsKey(): void {
  const cfg = config();
  if (cfg.secretsKey) return;
  const file = path.join(cfg.dataDir, 'secrets.key');
  if (!fs.existsSync(file))
    throw new Error(`SECRETS_KEY is not set and ${file} does not exist: set the key the API processes use.`);
  setConfig({ ...cfg, secretsKey: fs.readFileSync(file, 'utf8').trim() });
}

run(process.argv.slice(2))
  .then(async (out) => {
    if (out instanceof HelpRequest) return void process.stdout.write(out.text + '\n');
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    await disconnectStore();
  })
  .catch(async (err: Error & { code?: unknown }) => {
    // parseArgs's own errors (an unknown option, `--max-concurrent-calls -3`) are usage errors too; a gRPC
    // error's code is a number.
    const usage = err instanceof UsageError || (typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS_'));
    process.stderr.write(JSON.stringify({ error: { message: err.message } }) + '\n');
    if (usage) process.stderr.write(USAGE + '\n');
    await disconnectStore().catch(() => undefined);
    process.exit(usage ? 2 : 1);
  });
