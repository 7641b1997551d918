/**
 * The people of the dispatch queue's tests (issue 49): an administrator, two dispatchers of channel Quai (Dana
 * and Sam), a dispatcher of another channel (Olga, of Depot), two members of Quai (Alex, Bea) and a member of
 * Depot (Carl): `world(dialect, QUEUE_CAST)`, or `queueWorld` on an app the test started itself.
 */
import type { DispatchRequest } from '@talkgroup/protocol';
import type { Account, TestApp } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { cast, defineCast } from './world.ts';

export const QUEUE_CAST = defineCast({
  people: {
    dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
    sam: { role: 'dispatcher', firstName: 'Sam', lastName: 'Desk' },
    olga: { role: 'dispatcher', firstName: 'Olga', lastName: 'Other' },
    alex: { role: 'member', firstName: 'Alex', lastName: 'Martin' },
    bea: { role: 'member', firstName: 'Bea', lastName: 'Martin' },
    carl: { role: 'member', firstName: 'Carl', lastName: 'Depot' },
  },
  channels: {
    quai: { name: 'Quai', members: ['dana', 'sam', 'alex', 'bea'] },
    depot: { name: 'Depot', members: ['olga', 'carl'] },
  },
});

/** The people and channels on an app the test started itself (a cluster's instance). */
export function queueWorld(app: TestApp) {
  return cast(app, QUEUE_CAST);
}

export type QueueWorld = Awaited<ReturnType<typeof queueWorld>>;

/** The next `dispatchCallsChanged` of this request that matches. */
export function nextChange(
  client: TestClient,
  requestId: number,
  matches: (request: DispatchRequest) => boolean = () => true,
): Promise<DispatchRequest> {
  return client.next(
    'dispatchCallsChanged',
    (request: DispatchRequest) => request.requestId === requestId && matches(request),
  );
}

/** Asks for dispatch; the answer's body. */
export async function ask(
  app: TestApp,
  member: Account,
  channelId: number,
  fields: { priority?: 'normal' | 'high'; note?: string } = {},
) {
  return app.call('/user/api/requestDispatchCall', { channelId, ...fields }, member.token);
}
