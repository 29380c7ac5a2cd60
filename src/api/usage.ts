/**
 * Usage (spec section 4, "Usage"): `GET /v1/usage`, scope `usage:read`, for the key's organization and
 * mode (test and live usage never mix). Read on each request from the per-day rollups the usage rows are
 * added to as they are stored (src/services/usage.ts, src/services/usage-rollups.ts), so a finished call
 * counts as soon as the API shows it ended, and a month costs about 31 rollup reads however busy it was.
 */
import type { Router } from 'express';
import { z } from 'zod';
import { invalidParam } from '../errors';
import { UsageObject } from '../models/usage';
import { canonicalTimeZone, daysBetween, parseDate } from '../platform/calendar';
import { defaultPeriod, usageReport, type UsagePeriod } from '../services/usage';
import { operation, operationsRouter } from './operations';
import { agentVersionQuery, parseBody } from './validation';

/** The longest period, in days (a leap year). */
export const MAX_USAGE_DAYS = 366;

export const usageQuerySchema = z.strictObject({
  from: z.string().optional(),
  to: z.string().optional(),
  timezone: z.string().optional(),
  agent_id: z.string().min(1).optional(),
  agent_version: z.string().optional(),
});

/**
 * `GET /v1/usage?from=YYYY-MM-DD&to=YYYY-MM-DD&timezone=<IANA name>` → the `usage` object: `totals`
 * and one `daily` entry per day of the period (README "Usage" lists the fields).
 * Dates are inclusive local days of `timezone` (default `UTC`); `from` defaults to the first day of
 * the current month, `to` to today, both in that time zone.
 * Errors: 400 `parameter_invalid` naming `from`, `to` or `timezone` (not a date, an unknown zone,
 * `from` after `to`, more than 366 days); 400 `parameter_unknown` for any other parameter.
 */
const retrieveUsage = operation({
  method: 'get',
  path: '/v1/usage',
  operationId: 'retrieveUsage',
  tag: 'Usage',
  summary: 'Retrieve usage',
  description:
    'Local days of `timezone`, inclusive; `from` defaults to the first of the month, `to` to today; at most 366 days.',
  scope: 'usage:read',
  query: Object.entries(usageQuerySchema.shape).map(([name]) => ({
    name,
    description: {
      from: 'First day, `YYYY-MM-DD`.',
      to: 'Last day, `YYYY-MM-DD`.',
      timezone: 'IANA time zone of the days (default `UTC`).',
      agent_id: "Only the usage of this agent's calls and conversations.",
      agent_version: 'With `agent_id`: only the usage of calls and conversations that ran this version.',
    }[name]!,
  })),
  response: UsageObject,
  handler: async (req, res) => {
    const { orgId, livemode } = req.auth!;
    res.json(await usageReport({ orgId, livemode, ...usageAgent(req.query) }, usagePeriod(req.query)));
  },
});

/** Routes under `/v1/usage` (mounted there by src/api/app.ts). */
export function usageRouter(): Router {
  return operationsRouter('/v1/usage', [retrieveUsage]);
}

/**
 * The agent scope of a usage report: `agent_id`, and `agent_version` (a version number,
 * only with `agent_id`).
 * @throws ApiError 400 naming `agent_version` when it is not a number or comes without `agent_id`
 */
export function usageAgent(query: unknown): { agentId?: string; agentVersion?: number } {
  const q = parseBody(usageQuerySchema, query);
  const agentVersion = agentVersionQuery(q);
  if (agentVersion !== undefined && q.agent_id === undefined)
    throw invalidParam('agent_version', 'Invalid agent_version: give agent_id with it (versions are per agent).');
  return {
    ...(q.agent_id !== undefined ? { agentId: q.agent_id } : {}),
    ...(agentVersion !== undefined ? { agentVersion } : {}),
  };
}

/**
 * Checks the query and fills the defaults.
 * @throws ApiError 400 naming the parameter at fault
 */
export function usagePeriod(query: unknown, nowMs = Date.now()): UsagePeriod {
  const q = parseBody(usageQuerySchema, query);
  const timezone = q.timezone ?? 'UTC';
  if (!canonicalTimeZone(timezone))
    throw invalidParam(
      'timezone',
      `Invalid timezone: '${timezone}' is not an IANA time zone name (like Europe/Paris or America/New_York).`,
    );
  for (const param of ['from', 'to'] as const) {
    const v = q[param];
    if (v !== undefined && !parseDate(v))
      throw invalidParam(
        param,
        `Invalid ${param}: '${v}' is not a date in the form YYYY-MM-DD (a real day, 1970 or later).`,
      );
  }
  const defaults = defaultPeriod(timezone, nowMs);
  const from = q.from ?? defaults.from;
  const to = q.to ?? defaults.to;
  // Name the parameter the caller gave when the other one is a default.
  const days = daysBetween(from, to) + 1;
  if (days < 1) {
    const param = q.from === undefined ? 'to' : 'from';
    throw invalidParam(param, `Invalid ${param}: from (${from}) is after to (${to}).`);
  }
  if (days > MAX_USAGE_DAYS) {
    const param = q.to === undefined ? 'from' : 'to';
    throw invalidParam(
      param,
      `Invalid ${param}: the period from ${from} to ${to} is ${days} days; at most ${MAX_USAGE_DAYS} days can be asked at once.`,
    );
  }
  return { from, to, timezone };
}
