/**
 * What a realtime call costs and how long its answers take, through the real API, Temporal, the worker
 * and FerretDB against the loopback fake of the Realtime API (test/support/fake-openai-realtime.ts, at a
 * set pace, its `response.done` events carrying usage): each response's tokens (audio apart) are one usage
 * row, counted once in `GET /v1/usage`, the call's `usage` and the daily token quota; each answer to the
 * caller carries a `latency` record measured on the session (the VAD's silence, the model's time, the
 * tool and our round trip), the call its p50/p90, `/metrics` the histograms labelled `realtime`.
 */
import { expect } from 'chai';
import { UsageRecord } from '../../src/models/usage';
import { recordRealtimeUsage } from '../../src/services/usage';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { useFakeRealtime } from '../support/realtime-fixture';
import { createHttpTool, useTools } from '../support/tools';

describe('realtime calls: usage (audio tokens) and latency per answer', function () {
  this.timeout(120_000);
  // The session's pace: the VAD waits 80 ms of silence, the model 120 ms to its first audio.
  const realtime = useFakeRealtime({ speechMs: 30, silenceMs: 80, transcribeMs: 20, modelMs: 120 });
  const { withRealtime } = realtime;

  it("meters each response once with its audio tokens (GET /v1/usage, the call's usage, the quota) and times each answer", async () => {
    await withRealtime(async () => {
      const { fake, receiver } = realtime;
      const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
      const tool = await createHttpTool(t, receiver, 'lookup_order', '/rtm-orders');
      receiver.route('/rtm-orders', () => ({ status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) }));
      await useTools(t, [tool.id]);
      const account0 = await request('GET', '/v1/account', { key: t.testKey });
      const placed = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: t.agentId,
          simulation: { caller: ['I have a question.', 'TOOL lookup_order {"order_id":"A17"}', 'Thanks.'] },
        },
      });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
      const ended = await waitForCall(t.testKey, placed.body.id, undefined, 60_000);
      expect(ended.status, JSON.stringify(ended)).to.equal('completed');
      expect(ended.engine_fallback).to.equal(null);
      const rt = fake.callFor(ended.id)!;

      // Usage: the fake's responses (greeting, answer, function call, answer after it, answer), summed.
      const sent = fake.responses.filter((r) => r.callId === rt.id);
      expect(sent.length).to.equal(5);
      const want = {
        responses: sent.length,
        prompt_tokens: 0,
        completion_tokens: 0,
        prompt_text_tokens: 0,
        prompt_audio_tokens: 0,
        prompt_cached_tokens: 0,
        completion_text_tokens: 0,
        completion_audio_tokens: 0,
      };
      for (const { usage } of sent) {
        want.prompt_tokens += usage.input_tokens!;
        want.completion_tokens += usage.output_tokens!;
        want.prompt_text_tokens += usage.input_token_details!.text_tokens!;
        want.prompt_audio_tokens += usage.input_token_details!.audio_tokens!;
        want.prompt_cached_tokens += usage.input_token_details!.cached_tokens!;
        want.completion_text_tokens += usage.output_token_details!.text_tokens!;
        want.completion_audio_tokens += usage.output_token_details!.audio_tokens!;
      }
      expect(want.prompt_audio_tokens, 'the caller spoke: audio tokens in').to.be.greaterThan(0);
      expect(want.completion_audio_tokens, 'the model spoke: audio tokens out').to.be.greaterThan(0);
      expect(want.prompt_cached_tokens, 'later responses read the cached prefix').to.be.greaterThan(0);

      // The rows are written by the session's activity as the responses come, before it ends.
      const call = await request('GET', `/v1/calls/${ended.id}`, { key: t.testKey });
      expect(call.status).to.equal(200);
      expect(call.body.usage.realtime).to.deep.equal(want);
      expect(call.body.usage.llm.requests, 'no pipeline model request').to.equal(0);
      const usage = await request('GET', '/v1/usage', { key: t.testKey });
      expect(usage.status).to.equal(200);
      expect(usage.body.totals.realtime).to.deep.equal(want);
      expect(usage.body.totals.llm.requests).to.equal(0);
      const rows = await UsageRecord.find({ subject_id: ended.id, kind: 'realtime_response' }).lean();
      expect(rows.map((r) => r._id).sort()).to.deep.equal(sent.map((r) => `rt:${rt.id}:${r.id}`).sort());
      // The day's token quota counts them (text and audio alike).
      const account1 = await request('GET', '/v1/account', { key: t.testKey });
      expect(account1.body.quotas.llm_tokens_per_day.used - account0.body.quotas.llm_tokens_per_day.used).to.equal(
        want.prompt_tokens + want.completion_tokens,
      );

      // The same response seen again (a re-attached socket, a retried activity) is not counted twice.
      const again = sent[1];
      await recordRealtimeUsage({
        callId: ended.id,
        realtimeCallId: rt.id,
        responseId: again.id,
        model: 'gpt-realtime',
        usage: again.usage,
        occurredMs: Date.now(),
      });
      const usage2 = await request('GET', '/v1/usage', { key: t.testKey });
      expect(usage2.body.totals.realtime).to.deep.equal(want);
      const account2 = await request('GET', '/v1/account', { key: t.testKey });
      expect(account2.body.quotas.llm_tokens_per_day.used).to.equal(account1.body.quotas.llm_tokens_per_day.used);

      // Latency: the greeting has none; each of the three answers has one, measured on the session.
      const tr = await request('GET', `/v1/calls/${ended.id}/transcript`, { key: t.testKey });
      const turns = tr.body.turns as any[];
      const answers = turns.filter((x) => x.role === 'assistant');
      expect(answers[0].text).to.contain('Hello from Acme.');
      expect(answers[0].latency, 'the greeting answers no one').to.equal(undefined);
      const measured = answers.filter((x) => x.latency);
      expect(measured.map((x) => x.text)).to.deep.equal([
        'You said: I have a question.',
        'Tool said: {"order":"A17","status":"shipped"}',
        'You said: Thanks.',
      ]);
      for (const { latency: l, text } of measured) {
        // At least the VAD's silence; the rest is the fake's transcription and this process's receipt of it,
        // with room for a loaded machine.
        expect(l.end_of_speech_ms, `${text}: VAD silence + transcription`).to.be.within(80, 1_500);
        expect(l.model_first_token_ms, `${text}: the model's time`).to.be.at.least(110);
        expect(l.first_audio_ms, `${text}: silence + model at least`).to.be.at.least(
          80 + l.model_first_token_ms + l.tool_ms + l.orchestration_ms - 5,
        );
      }
      const [plain, withTool] = measured.map((x) => x.latency);
      expect([plain.tool_ms, plain.orchestration_ms], 'no tool: nothing of ours in the way').to.deep.equal([0, 0]);
      expect(withTool.model_first_token_ms, 'the function-call response and the answer').to.be.at.least(230);
      expect(withTool.tool_ms, 'the tool ran').to.be.at.least(1);
      expect(withTool.orchestration_ms, 'our round trip: signal, workflow, outbox').to.be.greaterThan(0);

      // The call's p50/p90 and the histograms, labelled realtime.
      expect(call.body.latency.turns).to.equal(3);
      expect(call.body.latency.first_audio_ms.p50).to.be.at.least(200);
      const metrics = await (await fetch(`${h().api.url}/metrics`)).text();
      const count = /^svc_voice_turn_first_audio_seconds_count\{engine="realtime"\} (\d+)/m.exec(metrics);
      expect(Number(count?.[1] ?? 0)).to.be.at.least(3);
    });
  });
});
