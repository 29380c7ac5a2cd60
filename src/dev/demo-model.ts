/**
 * The offline demo model: a scripted stand-in for an LLM that speaks the OpenAI Chat Completions HTTP
 * API (`POST /v1/chat/completions`, `GET /v1/models`), so `npm start` works with no API key and no
 * network. It is NOT a language model: it follows a few keyword rules —
 *   - "bye", "goodbye", "that's all" → says goodbye and calls `end_call`;
 *   - "person", "human", "transfer", "representative" → calls `transfer_call` to the first of the system
 *     prompt's "Transfer destinations", else its default "Transfer destination:" when there is one; in a
 *     text conversation, `handoff_to_person`;
 *   - otherwise a short scripted answer that names the agent.
 * Set `OPENAI_API_KEY` (and optionally `OPENAI_BASE_URL`) to use a real model instead.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEMO_MODEL_NAME = 'svc-demo-scripted';

interface Msg {
  role: string;
  content?: string | null;
}

/** Computes the scripted reply for a conversation (exported for its unit test). */
export function demoReply(
  messages: Msg[],
  tools: string[],
): { content: string; toolCall?: { name: string; arguments: string } } {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const name = /You are "([^"]+)"/.exec(system)?.[1] ?? 'the assistant';
  const users = messages.filter((m) => m.role === 'user');
  const last = (users[users.length - 1]?.content ?? '').toLowerCase();
  if (/\b(bye|goodbye|that'?s all|hang up)\b/.test(last) && tools.includes('end_call')) {
    return { content: 'Thank you for your time. Goodbye!', toolCall: { name: 'end_call', arguments: '{}' } };
  }
  if (/\b(person|human|representative|operator)\b/.test(last) && tools.includes('handoff_to_person')) {
    return {
      content: 'Of course, a colleague will answer you here shortly.',
      toolCall: {
        name: 'handoff_to_person',
        arguments: JSON.stringify({ reason: 'The customer asked for a person.' }),
      },
    };
  }
  if (/\b(person|human|transfer|representative|operator)\b/.test(last) && tools.includes('transfer_call')) {
    // The first destination the prompt lists by name, else the agent's default (no argument).
    const named = /Transfer destinations \([^)]*\): ([a-z0-9_-]+)/.exec(system)?.[1];
    if (named || /Transfer destination: \S+/.test(system))
      return {
        content: 'Of course, let me connect you with a colleague.',
        toolCall: { name: 'transfer_call', arguments: JSON.stringify(named ? { destination: named } : {}) },
      };
    return { content: "I'm sorry, there is nobody I can transfer you to right now, but I'm happy to help." };
  }
  if (users.length <= 1)
    return { content: `Hi, this is ${name}, an automated assistant (demo model). How can I help you today?` };
  return { content: 'I understand. Is there anything else I can help you with?' };
}

/** Starts the demo model on `127.0.0.1:port` (0 = any free port); resolves with its base URL. */
export async function startDemoModel(port = 0): Promise<{ baseUrl: string; close(): Promise<void> }> {
  let seq = 0;
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/v1/models') {
      return send(200, {
        object: 'list',
        data: [{ id: DEMO_MODEL_NAME, object: 'model', created: 0, owned_by: 'svc-demo' }],
      });
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return send(404, { error: { message: 'not found', type: 'invalid_request_error' } });
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: { messages?: Msg[]; tools?: { function?: { name?: string } }[]; model?: string };
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
      }
      const tools = (body.tools ?? []).map((t) => t.function?.name ?? '').filter(Boolean);
      const reply = demoReply(body.messages ?? [], tools);
      const id = `chatcmpl-demo-${++seq}`;
      send(200, {
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? DEMO_MODEL_NAME,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.content,
              refusal: null,
              ...(reply.toolCall
                ? { tool_calls: [{ id: `call_demo_${seq}`, type: 'function', function: reply.toolCall }] }
                : {}),
            },
            finish_reason: reply.toolCall ? 'tool_calls' : 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const addr = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${addr.port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
