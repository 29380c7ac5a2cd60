/**
 * Unit tests of the usage domain's pure rules: local days in IANA time zones (src/platform/calendar.ts), the
 * period a `GET /v1/usage` query asks for (src/api/usage.ts `usagePeriod`), and the fold of rows into
 * measures (src/models/usage.ts `addRow`).
 */
import { expect } from 'chai';
import { ApiError } from '../../src/errors';
import { canonicalTimeZone, dayStart, daysBetween, localDate, parseDate } from '../../src/platform/calendar';
import { usagePeriod } from '../../src/api/usage';
import { addRow, emptyMeasures } from '../../src/models/usage';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Length of local day `date` in `tz`, in hours. */
const hours = (date: string, next: string, tz: string) => (dayStart(next, tz) - dayStart(date, tz)) / HOUR;

describe('usage: local days', () => {
  it('parses real calendar dates only', () => {
    expect(parseDate('2024-02-29')).to.deep.equal({ y: 2024, m: 2, d: 29 });
    for (const bad of [
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-1-1',
      '26-01-01',
      '2026-01-01T00:00:00Z',
      ' 2026-01-01',
      '1969-12-31',
      '',
    ]) {
      expect(parseDate(bad), bad).to.equal(null);
    }
    expect(daysBetween('2024-01-01', '2024-12-31')).to.equal(365);
    expect(daysBetween('2026-03-02', '2026-03-01')).to.equal(-1);
  });

  it('starts days at local midnight, 23 or 25 hours long across DST changes', () => {
    expect(iso(dayStart('2026-06-01', 'UTC'))).to.equal('2026-06-01T00:00:00.000Z');
    expect(iso(dayStart('2026-03-08', 'America/New_York'))).to.equal('2026-03-08T05:00:00.000Z');
    expect(hours('2026-03-08', '2026-03-09', 'America/New_York')).to.equal(23);
    expect(hours('2026-11-01', '2026-11-02', 'America/New_York')).to.equal(25);
    expect(hours('2026-03-29', '2026-03-30', 'Europe/Paris')).to.equal(23);
    expect(iso(dayStart('2026-01-15', 'Asia/Kolkata'))).to.equal('2026-01-14T18:30:00.000Z');
    expect(iso(dayStart('2026-01-15', 'Asia/Kathmandu'))).to.equal('2026-01-14T18:15:00.000Z');
    expect(hours('2026-10-04', '2026-10-05', 'Australia/Lord_Howe')).to.equal(23.5);
    // Offsets of whole seconds (Liberia until 1972: -0:44:30).
    expect(iso(dayStart('1971-06-01', 'Africa/Monrovia'))).to.equal('1971-06-01T00:44:30.000Z');
  });

  it('starts a day whose midnight the clocks skip at the first instant of that date (01:00)', () => {
    // Cuba springs forward at 00:00 → 01:00.
    const start = dayStart('2026-03-08', 'America/Havana');
    expect(localDate(start, 'America/Havana')).to.equal('2026-03-08');
    expect(localDate(start - 1, 'America/Havana')).to.equal('2026-03-07');
    expect(hours('2026-03-08', '2026-03-09', 'America/Havana')).to.equal(23);
  });

  it('knows IANA names and nothing else', () => {
    expect(canonicalTimeZone('Europe/Paris')).to.equal('Europe/Paris');
    expect(canonicalTimeZone('utc')).to.equal('UTC');
    for (const bad of ['Mars/Olympus', 'Europe/Pariss', '', '+25:00'])
      expect(canonicalTimeZone(bad), bad).to.equal(null);
  });
});

describe('usage: the period asked for', () => {
  // 2026-03-01 03:00 UTC is still 2026-02-28 in New York.
  const now = Date.UTC(2026, 2, 1, 3, 0, 0);
  const param = (query: Record<string, unknown>) => {
    try {
      usagePeriod(query, now);
    } catch (err) {
      expect(err).to.be.instanceOf(ApiError);
      const e = err as ApiError;
      expect(e.status).to.equal(400);
      return `${e.code} ${e.param}`;
    }
    return 'ok';
  };

  it('defaults to the current month up to today, in the time zone asked for', () => {
    expect(usagePeriod({}, now)).to.deep.equal({ from: '2026-03-01', to: '2026-03-01', timezone: 'UTC' });
    expect(usagePeriod({ timezone: 'America/New_York' }, now)).to.deep.equal({
      from: '2026-02-01',
      to: '2026-02-28',
      timezone: 'America/New_York',
    });
    expect(usagePeriod({ from: '2026-01-15' }, now)).to.deep.equal({
      from: '2026-01-15',
      to: '2026-03-01',
      timezone: 'UTC',
    });
  });

  it('takes up to 366 days and names the parameter at fault', () => {
    expect(param({ from: '2024-01-01', to: '2024-12-31' })).to.equal('ok');
    expect(param({ from: '2023-01-01', to: '2024-01-01' })).to.equal('ok');
    expect(param({ from: '2023-01-01', to: '2024-01-02' })).to.equal('parameter_invalid to');
    expect(param({ from: '2024-01-01' })).to.equal('parameter_invalid from'); // to = today, 791 days later
    expect(param({ from: '2026-03-02', to: '2026-03-01' })).to.equal('parameter_invalid from');
    expect(param({ from: '2026-04-01' })).to.equal('parameter_invalid from'); // after today
    expect(param({ to: '2026-02-27' })).to.equal('parameter_invalid to'); // before the first of the month
    expect(param({ from: '2026-02-30' })).to.equal('parameter_invalid from');
    expect(param({ to: 'today' })).to.equal('parameter_invalid to');
    expect(param({ timezone: 'Mars/Olympus' })).to.equal('parameter_invalid timezone');
    expect(param({ from: ['2026-01-01', '2026-01-02'] })).to.equal('parameter_invalid from');
    expect(param({ since: '2026-01-01' })).to.equal('parameter_unknown since');
  });
});

describe('usage: rows into measures', () => {
  it('adds each kind of row to its fields, templates, realtime audio tokens and costs apart', () => {
    const m = emptyMeasures();
    addRow(m, {
      kind: 'call',
      status: 'completed',
      answered: 1,
      talk_seconds: 61,
      billable_minutes: 2,
      cost_total_micros: 74_230,
      cost_telephony_micros: 42_000,
      cost_model_micros: 2_230,
      cost_recording_micros: 0,
      cost_platform_micros: 30_000,
      cost_incomplete: 0,
    });
    addRow(m, { kind: 'call', status: 'busy', answered: 0, talk_seconds: 0, billable_minutes: 0 });
    addRow(m, { kind: 'llm_request', prompt_tokens: 100, completion_tokens: 7 });
    addRow(m, { kind: 'webhook_attempt', succeeded: 0 });
    addRow(m, { kind: 'webhook_attempt', succeeded: 1 });
    addRow(m, { kind: 'message', channel: 'whatsapp', direction: 'outbound', template: 1 });
    addRow(m, { kind: 'message', channel: 'whatsapp', direction: 'outbound', template: 0 });
    addRow(m, { kind: 'message', channel: 'sms', direction: 'inbound', template: 0 });
    addRow(m, { kind: 'knowledge_search' });
    addRow(m, { kind: 'analysis', prompt_tokens: 40, completion_tokens: 9 });
    addRow(m, {
      kind: 'realtime_response',
      prompt_tokens: 300,
      completion_tokens: 90,
      prompt_text_tokens: 200,
      prompt_audio_tokens: 100,
      prompt_cached_tokens: 128,
      completion_text_tokens: 20,
      completion_audio_tokens: 70,
    });
    addRow(m, { kind: 'realtime_response', prompt_tokens: 5, prompt_audio_tokens: 5 });
    expect(m).to.deep.equal({
      calls: {
        count: 2,
        answered: 1,
        by_status: { completed: 1, transferred: 0, busy: 1, no_answer: 0, failed: 0, canceled: 0 },
        talk_seconds: 61,
        billable_minutes: 2,
      },
      messages: {
        outbound: { sms: 0, whatsapp: 1, whatsapp_template: 1, web: 0 },
        inbound: { sms: 1, whatsapp: 0, web: 0 },
      },
      llm: { requests: 1, prompt_tokens: 100, completion_tokens: 7 },
      knowledge: { searches: 1 },
      analysis: { requests: 1, prompt_tokens: 40, completion_tokens: 9 },
      webhooks: { attempts: 2, succeeded: 1 },
      cost: {
        total_micros: 74_230,
        telephony_micros: 42_000,
        model_micros: 2_230,
        recording_micros: 0,
        platform_micros: 30_000,
        incomplete: 0,
      },
      realtime: {
        responses: 2,
        prompt_tokens: 305,
        completion_tokens: 90,
        prompt_text_tokens: 200,
        prompt_audio_tokens: 105,
        prompt_cached_tokens: 128,
        completion_text_tokens: 20,
        completion_audio_tokens: 70,
      },
    });
  });
});
