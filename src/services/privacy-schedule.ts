/**
 * The Temporal Schedule of the retention sweep: `retentionSweepWorkflow` every hour,
 * overlap SKIP (a sweep still running makes the next one wait for the hour after). Created at start by
 * every worker, `npm start` and the test harness, like the recording retention's
 * (src/services/recordings.ts `ensureRecordingRetentionSchedule`).
 */
import type { Client } from '@temporalio/client';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { config } from '../config';
import { RETENTION_SWEEP_SCHEDULE_ID, RETENTION_SWEEP_WORKFLOW, type RetentionSweepWorkflow } from '../shared/privacy';

/** Creates the `retention-sweep` schedule unless it exists. */
export async function ensureRetentionSweepSchedule(temporal: Client, taskQueue = config().taskQueue): Promise<void> {
  try {
    await temporal.schedule.create<RetentionSweepWorkflow>({
      scheduleId: RETENTION_SWEEP_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 hour' }] },
      action: { type: 'startWorkflow', workflowType: RETENTION_SWEEP_WORKFLOW, taskQueue, args: [{}] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 hour' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
