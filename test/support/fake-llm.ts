/**
 * A loopback OpenAI-compatible server for tests: the real `openai` client talks to it over HTTP.
 * It answers from the last user message (what the scripted caller said):
 *   "TOOL <name> <json>" → a tool call `<name>(<json>)` with content "Calling <name>."
 *   "TOOLONCE <name> <json>" → the same tool call, unless a tool result already follows that message:
 *                          then "Tool result received." (a model that uses what the tool returned)
 *   "TOOLQUIET <name> <json>" → the same tool call with no text at all (empty content): a model that acts
 *                          without a word, e.g. a hand-over
 *   "TOOLSONCE <json [[name, args], …]>" → those tool calls at once (parallel tool calls), unless tool
 *                          results already follow: then "Tools said: <result 1> | <result 2> …"
 *   "HANDOFF <member>"   → a `handoff_to_<member>` tool call with no text when the request offers that tool
 *                          (a squad member's hand-off), else "You said: HANDOFF <member>"
 *   "SLOW <ms>"          → waits <ms> then answers "Slow reply."
 *   "FAIL <status>"      → answers HTTP <status> with an OpenAI-style error
 *   a line naming a "discount" → "Good news: you get 10% off today." unless the system message (the agent's
 *                          instructions) says "never offer a discount": then "Sorry, we have no discounts."
 *                          (a behaviour that depends on the instructions, for replays of agent versions)
 *   anything else        → "You said: <text>"
 * A request with `response_format` is an analysis request (src/services/analysis.ts): it is
 * answered with a JSON object made from the answer's JSON Schema (`response_format.json_schema.schema`, or
 * in JSON mode the schema the system message carries): the first enum value, `const`, minimum numbers,
 * `true`, dates for date patterns, `"example"` strings, a `summary` quoting the caller's first line.
 * Markers in the system message (tests put them in the plan's prompts) script it:
 *   "FAKE_ANALYSIS:invalid-once"  → not JSON at first; valid once the request shows its earlier answer
 *   "FAKE_ANALYSIS:never-valid"   → always `{}` (valid JSON, never valid against the schema)
 *   "FAKE_ANALYSIS:slow=<ms>"     → waits <ms> first
 *   "FAKE_ANALYSIS:no-json-schema"→ refuses `json_schema` with a 400 naming it (JSON mode is answered)
 * A persona request (src/services/simulator.ts, its system message opens with "You are the
 * CALLER in a simulated phone call") plays the caller: the line numbered by the persona's own earlier
 * lines (its `assistant` messages: the roles are flipped) from the script a `FAKE_PERSONA: a | b | c` marker
 * in the persona gives (default: "Hello, I have a question." then "BYE Thanks, that is all. Goodbye."):
 *   "BYE <text>"   → <text> and a `hang_up` tool call
 *   "MARK <text>"  → "<text> [HANG UP]" (the text marker instead of the tool)
 *   "HANGUP"       → a `hang_up` tool call only, no text; past the script's end, the same
 *   anything else  → that line (e.g. "TOOL end_call {}", which makes the assistant call the tool)
 * A judge request (src/services/test-suites.ts, its system message opens with "You judge
 * a simulated phone call") answers the verdict the rubric's `FAKE_JUDGE:<pass|fail|garbage|bad-quote>`
 * marker asks for (default pass: score 90; fail: 20), its reason quoting the transcript's first caller line;
 * `garbage` answers text that is not JSON, `bad-quote` a quote the transcript does not hold.
 * A comparison request (src/services/replays.ts, its system message opens with "You compare two answers")
 * answers `{"changed", "explanation"}`: changed when the original and the replayed answers' words differ
 * beyond case and punctuation.
 * A chat request not streamed waits `delayMs` (default 0; a fixed model time for latency tests and
 * bench/voice.ts) before it is answered; a request the `hold` predicate picks is never answered.
 * A request with `stream: true` is answered as server-sent events (`chat.completion.chunk`s, then
 * `data: [DONE]`): the text word by word, the first after `streaming.firstTokenMs` and the next ones
 * `streaming.tokenGapMs` apart, tool calls in one chunk, and the `usage` chunk when
 * `stream_options.include_usage` asks for it.
 * Every request body is kept in `requests` for assertions, with when it arrived (`atMs`), when its answer
 * was sent in full (`answeredMs`), and the `usage` it was answered with:
 * prompt_tokens = the characters of the request's messages, completion_tokens = the characters of the
 * answer (so usage totals can be checked exactly against what the provider said).
 * `/v1/audio/*` (speech-to-text and text-to-speech of voice rooms) is test/support/fake-audio.ts.
 * `POST /v1/embeddings` answers the deterministic vectors of test/support/fake-embeddings.ts (any model
 * name), each after `embeddingDelayMs` (default 0); those requests are kept in `embeddingRequests` (with
 * when they arrived, `atMs`), not `requests`, and the next `embeddingFailures` of them are answered HTTP 500.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeAudio, handleAudio, type FakeAudio } from './fake-audio';
import { fakeEmbedding } from './fake-embeddings';

export interface FakeLlm {
  baseUrl: string;
  requests: {
    model: string;
    messages: { role: string; content: string | null }[];
    tools?: { function: { name: string } }[];
    user?: string;
    /** Analysis requests: `json_schema` (with the answer's schema) or `json_object`. */
    response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } };
    /** The `usage` of the answer (absent when the fake answered an error). */
    usage?: { prompt_tokens: number; completion_tokens: number };
    stream?: boolean;
    /** When the request arrived, and when its answer was sent in full (`Date.now()` ms). */
    atMs?: number;
    answeredMs?: number;
  }[];
  /** Timing of streamed answers (ms); change it between tests. */
  streaming: { firstTokenMs: number; tokenGapMs: number };
  /** How long a chat answer not streamed takes (ms, default 0); change it between tests. */
  delayMs: number;
  /**
   * Requests it answers true for are held unanswered until their client goes (a worker killed while the
   * model "thinks"); null (default) holds none. Kept in `requests` like any other.
   */
  hold: ((body: FakeLlm['requests'][number]) => boolean) | null;
  /**
   * Awaited before each chat request is answered (after its `atMs`): a test makes something happen while
   * the model "thinks" and the answer waits for it; null (default) awaits nothing.
   */
  before: ((body: FakeLlm['requests'][number]) => Promise<void>) | null;
  /** OpenAI's audio API on the same server (test/support/fake-audio.ts). */
  audio: FakeAudio;
  /** Embedding requests: the model and the inputs. */
  embeddingRequests: { model: string; input: string[]; atMs: number }[];
  /** How long an embeddings answer takes (ms, default 0); change it between tests. */
  embeddingDelayMs: number;
  /** How many of the next embedding requests fail with HTTP 500 (default 0); change it between tests. */
  embeddingFailures: number;
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  // Read at each request, so a test may assign a new `streaming` object.
  const knobs: Pick<FakeLlm, 'streaming' | 'delayMs' | 'hold' | 'before'> = {
    streaming: { firstTokenMs: 0, tokenGapMs: 0 },
    delayMs: 0,
    hold: null,
    before: null,
  };
  let seq = 0;
  const audio = fakeAudio();
  const embeddingRequests: FakeLlm['embeddingRequests'] = [];
  const embeddingKnobs = { failures: 0, delayMs: 0 };
  /** `POST /v1/embeddings`: OpenAI's answer shape, `usage` counting characters as tokens. */
  const embeddingsAnswer = async (body: { model?: string; input?: string | string[] }, res: http.ServerResponse) => {
    const input = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
    embeddingRequests.push({ model: String(body.model), input, atMs: Date.now() });
    if (embeddingKnobs.delayMs > 0) await new Promise((r) => setTimeout(r, embeddingKnobs.delayMs));
    res.writeHead(embeddingKnobs.failures > 0 ? 500 : 200, { 'content-type': 'application/json' });
    if (embeddingKnobs.failures > 0) {
      embeddingKnobs.failures--;
      res.end(JSON.stringify({ error: { message: 'embedding server failed', type: 'server_error' } }));
      return;
    }
    const tokens = input.reduce((n, t) => n + t.length, 0);
    res.end(
      JSON.stringify({
        object: 'list',
        model: body.model,
        data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      }),
    );
  };
  const server = http.createServer((req, res) => {
    if (handleAudio(audio, req, res)) return;
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw || '{}');
      if (req.url?.endsWith('/embeddings')) return embeddingsAnswer(body, res);
      body.atMs = Date.now();
      requests.push(body);
      if (knobs.hold?.(body)) return void (await new Promise((r) => res.once('close', r)));
      if (knobs.before) await knobs.before(body);
      const users = (body.messages ?? []).filter((m: { role: string }) => m.role === 'user');
      const last: string = users[users.length - 1]?.content ?? '';
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
        body.answeredMs = Date.now();
      };
      const system: string = (body.messages ?? []).find((m: { role: string }) => m.role === 'system')?.content ?? '';
      if (body.response_format && system.startsWith(JUDGE_PROMPT)) return judgeAnswer(body, system, send);
      if (body.response_format && system.startsWith(COMPARER_PROMPT)) return comparerAnswer(body, send);
      if (body.response_format) return analysisAnswer(body, send);
      if (system.startsWith(PERSONA_PROMPT)) return personaAnswer(body, system, send);
      let m: RegExpExecArray | null;
      if ((m = /^FAIL (\d{3})$/.exec(last)))
        return send(Number(m[1]), { error: { message: 'fake failure', type: 'server_error' } });
      if ((m = /^SLOW (\d+)$/.exec(last))) await new Promise((r) => setTimeout(r, Number(m![1])));
      const lastUserIndex = (body.messages ?? []).map((m: { role: string }) => m.role).lastIndexOf('user');
      const toolAnswered = (body.messages ?? [])
        .slice(lastUserIndex + 1)
        .some((m: { role: string }) => m.role === 'tool');
      const once = /^TOOLONCE (\w+) ?(.*)$/.exec(last);
      const many = /^TOOLSONCE (.*)$/.exec(last);
      // A squad member's hand-off: the tool call (no text) only when this request offers it.
      const handoff = /^HANDOFF (\w+)$/.exec(last);
      const handoffTool = handoff ? `handoff_to_${handoff[1]}` : null;
      const offersHandoff = (body.tools ?? []).some(
        (t: { function?: { name?: string } }) => t.function?.name === handoffTool,
      );
      const quiet = /^TOOLQUIET (\w+) ?(.*)$/.exec(last) ?? (offersHandoff ? ['', handoffTool!, '{}'] : null);
      const tool = once ? (toolAnswered ? null : once) : (quiet ?? /^TOOL (\w+) ?(.*)$/.exec(last));
      const id = ++seq;
      const calls: { name: string; args: string }[] = many
        ? toolAnswered
          ? []
          : (JSON.parse(many[1]) as [string, unknown][]).map(([name, args]) => ({ name, args: JSON.stringify(args) }))
        : tool
          ? [{ name: tool[1], args: tool[2] || '{}' }]
          : [];
      const toolResults = (body.messages ?? [])
        .slice(lastUserIndex + 1)
        .filter((m: { role: string }) => m.role === 'tool')
        .map((m: { content: string }) => m.content);
      const content = quiet
        ? ''
        : calls.length
          ? `Calling ${calls.map((c) => c.name).join(', ')}.`
          : many
            ? `Tools said: ${toolResults.join(' | ')}`
            : once
              ? 'Tool result received.'
              : /^SLOW/.test(last)
                ? 'Slow reply.'
                : /discount/i.test(last)
                  ? /never offer a discount/i.test(system)
                    ? 'Sorry, we have no discounts.'
                    : 'Good news: you get 10% off today.'
                  : `You said: ${last}`;
      const toolCalls = calls.map((c, i) => ({
        id: `call_fake_${id}${i ? `_${i}` : ''}`,
        type: 'function',
        function: { name: c.name, arguments: c.args },
      }));
      const promptTokens = (body.messages ?? []).reduce(
        (n: number, m: { content?: unknown }) => n + (typeof m.content === 'string' ? m.content.length : 0),
        0,
      );
      const usage = {
        prompt_tokens: promptTokens,
        completion_tokens: content.length,
        total_tokens: promptTokens + content.length,
      };
      body.usage = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
      if (body.stream) {
        const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
          `data: ${JSON.stringify({ id: `chatcmpl-fake-${id}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model, choices, ...extra })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.socket?.setNoDelay(true);
        const words = content.split(/(?<= )/);
        const { firstTokenMs, tokenGapMs } = knobs.streaming;
        await new Promise((r) => setTimeout(r, firstTokenMs));
        for (let i = 0; i < words.length; i++) {
          if (i > 0 && tokenGapMs > 0) await new Promise((r) => setTimeout(r, tokenGapMs));
          const delta = { ...(i === 0 ? { role: 'assistant' } : {}), content: words[i] };
          res.write(chunk([{ index: 0, delta, finish_reason: null, logprobs: null }]));
        }
        if (toolCalls.length)
          res.write(
            chunk([
              {
                index: 0,
                delta: { tool_calls: toolCalls.map((c, index) => ({ index, ...c })) },
                finish_reason: null,
                logprobs: null,
              },
            ]),
          );
        res.write(
          chunk([{ index: 0, delta: {}, finish_reason: toolCalls.length ? 'tool_calls' : 'stop', logprobs: null }]),
        );
        if (body.stream_options?.include_usage) res.write(chunk([], { usage }));
        res.end('data: [DONE]\n\n');
        body.answeredMs = Date.now();
        return;
      }
      if (knobs.delayMs > 0) await new Promise((r) => setTimeout(r, knobs.delayMs));
      send(200, {
        id: `chatcmpl-fake-${id}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
            logprobs: null,
            message: {
              role: 'assistant',
              refusal: null,
              content,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
          },
        ],
        usage,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    audio,
    embeddingRequests,
    get embeddingFailures() {
      return embeddingKnobs.failures;
    },
    set embeddingFailures(value) {
      embeddingKnobs.failures = value;
    },
    get embeddingDelayMs() {
      return embeddingKnobs.delayMs;
    },
    set embeddingDelayMs(value) {
      embeddingKnobs.delayMs = value;
    },
    get streaming() {
      return knobs.streaming;
    },
    set streaming(value) {
      knobs.streaming = value;
    },
    get delayMs() {
      return knobs.delayMs;
    },
    set delayMs(value) {
      knobs.delayMs = value;
    },
    get before() {
      return knobs.before;
    },
    set before(value) {
      knobs.before = value;
    },
    get hold() {
      return knobs.hold;
    },
    set hold(value) {
      knobs.hold = value;
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Answers an analysis request (see the header): scripted by `FAKE_ANALYSIS:` markers in the system message. */
async function analysisAnswer(
  body: {
    model: string;
    messages: { role: string; content: string | null }[];
    response_format: { type: string; json_schema?: { schema: Record<string, unknown> } };
    usage?: { prompt_tokens: number; completion_tokens: number };
  },
  send: (status: number, payload: unknown) => void,
): Promise<void> {
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  const slow = /FAKE_ANALYSIS:slow=(\d+)/.exec(system);
  if (slow) await new Promise((r) => setTimeout(r, Number(slow[1])));
  if (/FAKE_ANALYSIS:no-json-schema/.test(system) && body.response_format.type === 'json_schema')
    return send(400, {
      error: { message: "response_format 'json_schema' is not supported by this model", type: 'invalid_request_error' },
    });
  const schema =
    body.response_format.json_schema?.schema ??
    JSON.parse(/The JSON Schema of the answer:\n(.*)$/m.exec(system)?.[1] ?? '{}');
  const transcript = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const firstLine = /^(?:Caller|Customer): (.*)$/m.exec(transcript)?.[1] ?? 'nothing';
  const retry = body.messages.some((m) => m.role === 'assistant');
  const content = /FAKE_ANALYSIS:never-valid/.test(system)
    ? '{}'
    : /FAKE_ANALYSIS:invalid-once/.test(system) && !retry
      ? 'Sure! The caller was happy, I think.'
      : JSON.stringify(sample(schema, schema, '', firstLine));
  const promptTokens = body.messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: content.length };
  body.usage = usage;
  send(200, {
    id: `chatcmpl-fake-analysis-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      { index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', refusal: null, content } },
    ],
    usage: { ...usage, total_tokens: promptTokens + content.length },
  });
}

/** A value valid against a (simple) JSON Schema: see the header of this file. */
function sample(schema: unknown, root: Record<string, unknown>, key: string, firstLine: string): unknown {
  if (!schema || typeof schema !== 'object') return 'example';
  const s = schema as Record<string, any>;
  if (typeof s.$ref === 'string') {
    const [, where, name] = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref) ?? [];
    return sample((root[where] as Record<string, unknown> | undefined)?.[name], root, key, firstLine);
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [
          k,
          sample(v, root, k, firstLine),
        ]),
      );
    case 'array':
      return [sample(s.items, root, key, firstLine)];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      if (key === 'summary') return `The caller said: ${firstLine}`;
      if (s.format === 'date' || /\\d\{4\}/.test(String(s.pattern ?? ''))) return '2026-01-15';
      return 'example';
  }
}

/** The opening words of the simulator's and the judge's system prompts (src/services/simulator.ts, test-suites.ts). */
const PERSONA_PROMPT = 'You are the CALLER in a simulated phone call';
const JUDGE_PROMPT = 'You judge a simulated phone call';
/** The opening words of a replay's comparison prompt (src/services/replays.ts `COMPARER_PROMPT_MARKER`). */
const COMPARER_PROMPT = 'You compare two answers of an AI phone assistant';

/** Answers a comparison request (see the header): changed when the two answers' words differ. */
function comparerAnswer(
  body: { model: string; messages: { role: string; content: string | null }[] },
  send: (status: number, payload: unknown) => void,
): void {
  const question = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const words = (label: string) =>
    (new RegExp(`^${label}: (.*)$`, 'm').exec(question)?.[1] ?? '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const changed = words('Original answer') !== words('Replayed answer');
  complete(
    body,
    send,
    JSON.stringify({ changed, explanation: changed ? 'The answers say different things.' : 'The same answer.' }),
  );
}

/** Sends a chat completion of `content` (and `toolCalls`), with usage counted as the header says. */
function complete(
  body: {
    model: string;
    messages: { content: string | null }[];
    usage?: { prompt_tokens: number; completion_tokens: number };
  },
  send: (status: number, payload: unknown) => void,
  content: string | null,
  toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [],
): void {
  const promptTokens = body.messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: (content ?? '').length };
  body.usage = usage;
  send(200, {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        logprobs: null,
        message: { role: 'assistant', refusal: null, content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
}

/** Answers a persona request (see the header): the next line of the `FAKE_PERSONA:` script. */
function personaAnswer(
  body: { model: string; messages: { role: string; content: string | null }[] },
  system: string,
  send: (status: number, payload: unknown) => void,
): void {
  const script = /FAKE_PERSONA:(.*)$/m.exec(system)?.[1];
  const lines = script
    ? script.split('|').map((l) => l.trim())
    : ['Hello, I have a question.', 'BYE Thanks, that is all. Goodbye.'];
  const line = lines[body.messages.filter((m) => m.role === 'assistant').length] ?? 'HANGUP';
  const hangUp = [
    { id: `call_hangup_${Date.now()}`, type: 'function' as const, function: { name: 'hang_up', arguments: '{}' } },
  ];
  if (line === 'HANGUP') return complete(body, send, null, hangUp);
  if (line.startsWith('BYE ')) return complete(body, send, line.slice(4), hangUp);
  if (line.startsWith('MARK ')) return complete(body, send, `${line.slice(5)} [HANG UP]`);
  complete(body, send, line);
}

/** Answers a judge request (see the header): the verdict the rubric's `FAKE_JUDGE:` marker asks for. */
function judgeAnswer(
  body: { model: string; messages: { role: string; content: string | null }[] },
  system: string,
  send: (status: number, payload: unknown) => void,
): void {
  const mode = /FAKE_JUDGE:([\w-]+)/.exec(system)?.[1] ?? 'pass';
  const transcript = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const quote = /^Caller: (.*)$/m.exec(transcript)?.[1] ?? 'nothing';
  if (mode === 'garbage') return complete(body, send, 'The assistant did fine, I suppose!');
  const fail = mode === 'fail';
  complete(
    body,
    send,
    JSON.stringify({
      verdict: fail ? 'fail' : 'pass',
      score: fail ? 20 : 90,
      reasons: [
        {
          quote: mode === 'bad-quote' ? 'words nobody said on this call' : quote,
          explanation: fail ? 'The caller did not get what they asked for.' : 'The caller was helped.',
        },
      ],
    }),
  );
}
