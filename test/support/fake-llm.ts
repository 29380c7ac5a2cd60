/**
 * A loopback OpenAI-compatible server for tests: the real `openai` client talks to it over HTTP.
 * It answers from the last user message (what the scripted caller said):
 *   "TOOL <name> <json>" → a tool call `<name>(<json>)` with content "Calling <name>."
 *   "TOOLONCE <name> <json>" → the same tool call, unless a tool result already follows that message:
 *                          then "Tool result received." (a model that uses what the tool returned)
 *   "SLOW <ms>"          → waits <ms> then answers "Slow reply."
 *   "FAIL <status>"      → answers HTTP <status> with an OpenAI-style error
 *   anything else        → "You said: <text>"
 * Every request body is kept in `requests` for assertions, with the `usage` it was answered with:
 * prompt_tokens = the characters of the request's messages, completion_tokens = the characters of the
 * answer (so usage totals can be checked exactly against what the provider said).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlm {
  baseUrl: string;
  requests: {
    model: string;
    messages: { role: string; content: string | null }[];
    tools?: { function: { name: string } }[];
    user?: string;
    /** The `usage` of the answer (absent when the fake answered an error). */
    usage?: { prompt_tokens: number; completion_tokens: number };
  }[];
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: FakeLlm['requests'] = [];
  let seq = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw || '{}');
      requests.push(body);
      const users = (body.messages ?? []).filter((m: { role: string }) => m.role === 'user');
      const last: string = users[users.length - 1]?.content ?? '';
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      let m: RegExpExecArray | null;
      if ((m = /^FAIL (\d{3})$/.exec(last)))
        return send(Number(m[1]), { error: { message: 'fake failure', type: 'server_error' } });
      if ((m = /^SLOW (\d+)$/.exec(last))) await new Promise((r) => setTimeout(r, Number(m![1])));
      const lastUserIndex = (body.messages ?? []).map((m: { role: string }) => m.role).lastIndexOf('user');
      const toolAnswered = (body.messages ?? [])
        .slice(lastUserIndex + 1)
        .some((m: { role: string }) => m.role === 'tool');
      const once = /^TOOLONCE (\w+) ?(.*)$/.exec(last);
      const tool = once ? (toolAnswered ? null : once) : /^TOOL (\w+) ?(.*)$/.exec(last);
      const id = ++seq;
      const content = tool
        ? `Calling ${tool[1]}.`
        : once
          ? 'Tool result received.'
          : /^SLOW/.test(last)
            ? 'Slow reply.'
            : `You said: ${last}`;
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
      send(200, {
        id: `chatcmpl-fake-${id}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            finish_reason: tool ? 'tool_calls' : 'stop',
            logprobs: null,
            message: {
              role: 'assistant',
              refusal: null,
              content,
              ...(tool
                ? {
                    tool_calls: [
                      {
                        id: `call_fake_${id}`,
                        type: 'function',
                        function: { name: tool[1], arguments: tool[2] || '{}' },
                      },
                    ],
                  }
                : {}),
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
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
