/**
 * A sample that must not compile (test/integration/sdk-typescript.test.ts asserts `tsc --strict` rejects
 * each marked line): wrong parameter types and a field of another event type are compile-time errors.
 */
import { Svc, type SvcEvent } from 'svc-assistant-sdk';

export async function wrong(svc: Svc, event: SvcEvent): Promise<void> {
  // A phone number as a number: `to` is a string.
  await svc.calls.create({ to: 14155550123, agent_id: 'agt_x' }); // expect-error: to
  // A status the API does not have.
  await svc.calls.list({ status: 'finished' }); // expect-error: status
  // A path parameter missing: publish takes the agent's id and the version.
  await svc.agents.versions.publish('agt_x'); // expect-error: publish
  if (event.type === 'message.received') {
    // A message event's object is a message, which has no `duration_seconds`.
    console.log(event.data.object.duration_seconds); // expect-error: duration_seconds
  }
}
