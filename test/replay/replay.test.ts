/**
 * Replay tests: every history recorded from a real run (test/replay/histories/*.json, written by
 * `npm run record-histories`) is replayed against the current workflow code with
 * `Worker.runReplayHistories`. A change that is not deterministic with respect to a recorded run fails
 * here, before it can break running workflows in production.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { h } from '../support/harness';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { dataConverter } from '../../src/platform/payload-codec';
import { decodePayload } from '../support/history';

const DIR = path.resolve(__dirname, '../../../test/replay/histories');

describe('replay of recorded workflow histories', function () {
  this.timeout(120_000);
  const files = fs.existsSync(DIR)
    ? fs
        .readdirSync(DIR)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];

  it('has recorded callWorkflow histories for every way a call ends', () => {
    // Recorded with the current code (pre-release: re-recorded on each change; README, "Changing a workflow").
    expect(files.filter((f) => f.startsWith('call-'))).to.include.members([
      'call-assistant-ended.json',
      'call-caller-hung-up.json',
      'call-api-end.json',
      'call-api-transfer.json',
      'call-tool-transfer.json',
      'call-busy.json',
      'call-no-answer.json',
      'call-canceled-while-ringing.json',
      'call-max-duration.json',
      'call-llm-failed.json',
      'call-deadline-failed.json',
      'call-search-knowledge.json',
      'call-continued-as-new.json',
      'call-custom-tools.json',
    ]);
  });

  it('has recorded callWorkflow histories of browser voice rooms (RECORD_HISTORIES=1 on voice-rooms.test.ts)', () => {
    expect(files.filter((f) => f.startsWith('call-room-'))).to.include.members([
      'call-room-caller-hung-up.json',
      'call-room-assistant-ended.json',
      'call-room-api-end.json',
      'call-room-worker-crash.json',
    ]);
  });

  it("has recorded a callWorkflow history of a squad's call (a hand-off per context policy)", () => {
    expect(files).to.include('call-squad.json');
  });

  it("has recorded conversationWorkflow histories of a squad's conversation switched by a message and continued as new", () => {
    expect(files).to.include.members([
      'conversation-v030-squad-continued.json',
      'conversation-v030-squad-continued-next.json',
    ]);
  });

  it("has a recorded conversationWorkflow history of a squad's conversation ended by a message naming an agent", () => {
    expect(files).to.include('conversation-v030-squad-agent-message.json');
  });

  it('has recorded callWorkflow histories of voicemail', () => {
    expect(files.filter((f) => f.startsWith('call-'))).to.include.members([
      'call-voicemail.json',
      'call-voicemail-hang-up.json',
      'call-voicemail-human.json',
    ]);
  });

  it('has recorded callWorkflow histories of warm transfers, joined and failed back to the assistant', () => {
    expect(files.filter((f) => f.startsWith('call-'))).to.include.members([
      'call-warm-transfer.json',
      'call-warm-transfer-failed.json',
    ]);
  });

  it('has recorded callWorkflow histories of LIVE calls through the fake Twilio (record-live-call-histories.ts)', async () => {
    // Every other call history is a simulated call; these guard the paths production runs.
    expect(files.filter((f) => f.startsWith('call-live-'))).to.include.members([
      'call-live-dial.json', // dialed, answered, talked, ended by the assistant
      'call-live-voicemail.json', // answering machine detected, the message left after the beep
      'call-live-warm-transfer.json', // hold, dial the person, brief, bridge
      'call-live-warm-transfer-failed.json', // nobody answers: the caller back with the assistant
      'call-live-dtmf.json', // the caller's keypad and the send_dtmf tool
      'call-live-inbound.json', // answered with ConversationRelay, the caller hangs up
    ]);
    for (const f of files.filter((x) => x.startsWith('call-live-'))) {
      const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')));
      const started = history.events![0].workflowExecutionStartedEventAttributes!;
      expect(started.workflowType!.name, f).to.equal('callWorkflow');
      const input = await decodePayload<{ livemode: boolean; simulation: unknown }>(started.input!.payloads![0]);
      expect({ livemode: input.livemode, simulation: input.simulation }, f).to.deep.equal({
        livemode: true,
        simulation: null,
      });
    }
  });

  it('has recorded callWorkflow histories of realtime calls (record-realtime-histories.ts)', async () => {
    expect(files.filter((f) => f.startsWith('call-realtime-'))).to.include.members([
      'call-realtime-test.json', // test mode: greeting, turns, an http tool, end_call (hangup)
      'call-realtime-fallback.json', // accept answered 500: the pipeline takes the call
      'call-realtime-session-error.json', // the session errors before its first answer: the pipeline takes it
      'call-realtime-live.json', // a live call: Twilio dials the SIP URI, talked, ended by hangup
      'call-realtime-reattach.json', // the socket drops while a tool runs: re-attached, the output sent on the new one
      'call-realtime-refer.json', // the model's transfer_call: refer of the SIP leg
      'call-realtime-v030-squad.json', // (0.3.0) a realtime squad: a hand-off per context policy, session.update each
      'call-realtime-v030-sideband-tool.json', // 0.3.0: the sideband runs an http tool itself, the result by signal
    ]);
    for (const f of files.filter((x) => x.startsWith('call-realtime-'))) {
      const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')));
      const started = history.events![0].workflowExecutionStartedEventAttributes!;
      const input = await decodePayload<{ livemode: boolean; agent: { engine?: string } }>(started.input!.payloads![0]);
      expect({ engine: input.agent.engine, livemode: input.livemode }, f).to.deep.equal({
        engine: 'realtime',
        livemode: f === 'call-realtime-live.json',
      });
      const activities = history.events!.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
      expect(activities, f).to.include('acceptRealtimeCall');
      if (f === 'call-realtime-v030-squad.json')
        expect(activities.filter((a) => a === 'realtimeMemberSession')).to.have.length(3);
    }
  });

  it('has recorded histories of inbound calls, of a queued call and of the call-slot semaphore', () => {
    // call-slots.json is a callSlotsWorkflow still open (it never completes): replayed as far as it goes.
    expect(files.filter((f) => f.startsWith('call-'))).to.include.members([
      'call-inbound.json',
      'call-inbound-refused.json',
      'call-queued.json',
      'call-slots.json',
    ]);
  });

  it('has recorded histories of scheduled calls (dialed at their time, canceled while waiting) and promised callbacks', () => {
    expect(files).to.include.members([
      'call-scheduled.json',
      'call-scheduled-canceled.json',
      'call-callback.json',
      'conversation-callback.json',
    ]);
  });

  it('has recorded webhookDeliveryWorkflow histories for every way a delivery ends', () => {
    expect(files.filter((f) => f.startsWith('webhook-delivery-'))).to.include.members([
      'webhook-delivery-succeeded.json',
      'webhook-delivery-retried.json',
      'webhook-delivery-gone.json',
      'webhook-delivery-retries-exhausted.json',
      'webhook-delivery-canceled.json',
      'webhook-delivery-redelivery.json',
    ]);
  });

  it('has recorded conversationWorkflow histories for every outcome of a message', () => {
    expect(files.filter((f) => f.startsWith('conversation-'))).to.include.members([
      'conversation-reply.json',
      'conversation-handoff-resume.json',
      'conversation-take-over.json',
      'conversation-duplicates-opt-out.json',
      'conversation-window-template.json',
      'conversation-llm-failed.json',
      'conversation-continue-as-new.json',
      'conversation-live-statuses.json',
      'conversation-web.json',
      'conversation-tools.json',
      // A burst of messages while the assistant lane wants the store: local activities one at a time.
      'conversation-lanes.json',
      // A hand-over with no text after it: the tool call recorded on the customer's message.
      'conversation-quiet-handoff.json',
    ]);
  });

  it('has recorded bulkCallWorkflow histories: completed, continued as new, paused and canceled, window expired', () => {
    expect(files.filter((f) => f.startsWith('bulk-call-'))).to.include.members([
      'bulk-call-completed.json',
      'bulk-call-continued.json',
      'bulk-call-paused-canceled.json',
      'bulk-call-window-expired.json',
    ]);
  });

  it('has recorded histories of the recording path: a recorded call, its copy (synthesized, Twilio, browser room), retention', () => {
    // Written by test/support/record-recording-histories.ts.
    expect(files).to.include.members([
      'call-recorded.json',
      'recording-synthesized.json',
      'recording-twilio.json',
      'recording-retention.json',
      'recording-room.json', // RECORD_HISTORIES=1 on voice-room-recording.test.ts
    ]);
  });

  it('has recorded histories of the privacy workflows: a retention sweep and an erasure', () => {
    // Written by test/support/record-privacy-histories.ts.
    expect(files).to.include.members(['retention-sweep.json', 'erasure.json']);
  });

  it('has recorded callAnalysisWorkflow histories (RECORD_HISTORIES=1 on call-analysis.test.ts)', () => {
    expect(files.filter((f) => f.startsWith('analysis-'))).to.include.members([
      'analysis-completed.json',
      'analysis-retried.json',
      'analysis-failed.json',
      'analysis-rerun.json',
      'analysis-conversation.json',
    ]);
  });

  it('has recorded histories of a persona call and of test suite runs (RECORD_HISTORIES=1 on test-suites.test.ts)', () => {
    expect(files).to.include.members(['call-persona.json', 'test-suite-run.json', 'test-suite-run-errored.json']);
  });

  it('has recorded histories of a replay and of one replayed call (RECORD_HISTORIES=1 on replays.test.ts)', () => {
    expect(files).to.include.members(['replay-run-turn.json', 'replay-run-call.json']);
  });

  it("has recorded a fork replay's call whose tools answer by their mock rules (RECORD_HISTORIES=1 on replay-fork-mocks.test.ts)", () => {
    // A recorded result, a rule, a default and a made-up result: the `tool-mock-rules` patch marker.
    expect(files).to.include('call-v030-fork-mock-rules.json');
  });

  it('has a recorded auditRetentionWorkflow history (RECORD_HISTORIES=1 on audit.test.ts, issue 36 item 4)', () => {
    expect(files).to.include('audit-retention.json');
  });

  it('replays every recorded history without a determinism error', async () => {
    const histories = files.map((f) => {
      const history = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
      const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
      return { workflowId: f.replace(/\.json$/, ''), history, type: started?.workflowType?.name };
    });
    expect(histories.length).to.be.greaterThan(0);
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: h().bundle, replayName: 'replay-test', dataConverter },
      histories,
    )) {
      expect(result.error, `${result.workflowId}: ${result.error?.message}`).to.equal(undefined);
      replayed++;
    }
    expect(replayed).to.equal(histories.length);
  });
});
