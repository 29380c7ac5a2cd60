/**
 * Twilio's published OpenAPI description of the 2010 REST API, trimmed to parameter names
 * (test/support/twilio-oai-params.json, made by scripts/twilio-oai-params.mjs from
 * github.com/twilio/twilio-oai `spec/json/twilio_api_v2010.json`; the version is in the file), and the
 * check the fake Twilio (test/support/fake-twilio.ts) runs on every request: a path Twilio does not
 * serve, or a form or query parameter its operation does not take, is refused, so a test that makes the
 * service send one fails.
 */
import fs from 'node:fs';
import path from 'node:path';

interface OaiOperation {
  query: string[];
  form: string[];
}
interface OaiParams {
  source: string;
  version: string;
  paths: Record<string, Partial<Record<'GET' | 'POST' | 'DELETE', OaiOperation>>>;
}

type Loaded = { spec: OaiParams; templates: { template: string; re: RegExp }[] };
const loaded = new Map<string, Loaded>();

/**
 * A trimmed description (`file` in test/support, read once), with a matcher per path template (`{Sid}` =
 * one path segment).
 */
function load(file: string): Loaded {
  let found = loaded.get(file);
  if (!found) {
    // From the sources (test/support) or the build (dist/test/support): the JSON stays in the sources.
    const candidates = [path.join(__dirname, file), path.join(__dirname, '..', '..', '..', 'test', 'support', file)];
    const at = candidates.find((f) => fs.existsSync(f));
    if (!at) throw new Error(`test/support/${file} is missing (scripts/twilio-oai-params.mjs)`);
    const spec = JSON.parse(fs.readFileSync(at, 'utf8')) as OaiParams;
    const templates = Object.keys(spec.paths).map((template) => ({
      template,
      re: new RegExp('^' + template.replace(/[.]/g, '\\.').replace(/\{[A-Za-z]+\}/g, '[^/]+') + '$'),
    }));
    found = { spec, templates };
    loaded.set(file, found);
  }
  return found;
}

/** The Voice v1 API's description (BYOC trunks, Connection Policies and their Targets). */
const VOICE_FILE = 'twilio-oai-voice-params.json';

/** The 2010 API's description. */
const oai = () => load('twilio-oai-params.json');

/** Which twilio-oai version the check uses (`source` and `version` of the trimmed file). */
export function twilioOaiVersion(): { source: string; version: string } {
  const { source, version } = oai().spec;
  return { source, version };
}

/**
 * Why Twilio's published API would not take this request, or null when it would: no operation for the
 * method and path (a `.json` path of the 2010 API, a `/v1/…` path of the Voice v1 API), or a query or
 * form parameter its operation does not list. Media paths (`….wav`, `….mp3`) are not in the description
 * and are not checked.
 */
export function twilioOaiRefusal(
  method: string,
  pathname: string,
  query: Iterable<string>,
  form: Iterable<string>,
): string | null {
  // The 2010 API's paths end in `.json`; the Voice v1 API's (voice.twilio.com) start with `/v1/`.
  const described = pathname.endsWith('.json') ? oai() : pathname.startsWith('/v1/') ? load(VOICE_FILE) : null;
  if (!described) return null;
  const { spec, templates } = described;
  // The most specific template first: literal segments beat `{…}` ones (`Recordings/Twilio.CURRENT`).
  const matching = templates.filter((t) => t.re.test(pathname));
  const found = matching.sort((a, b) => a.template.split('{').length - b.template.split('{').length)[0];
  if (!found) return `twilio-oai has no path ${pathname}`;
  const op = spec.paths[found.template][method.toUpperCase() as 'GET' | 'POST' | 'DELETE'];
  if (!op) return `twilio-oai has no ${method.toUpperCase()} ${found.template}`;
  const badQuery = [...query].filter((name) => !op.query.includes(name));
  if (badQuery.length)
    return `${method.toUpperCase()} ${found.template} takes no query parameter ${badQuery.join(', ')}`;
  const badForm = [...form].filter((name) => !op.form.includes(name));
  if (badForm.length) return `${method.toUpperCase()} ${found.template} takes no parameter ${badForm.join(', ')}`;
  return null;
}
