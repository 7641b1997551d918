/**
 * The people of the dispatch queue's tests (issue 49): an administrator, two dispatchers of channel Quai (Dana
 * and Sam), a dispatcher of another channel (Olga, of Depot), two members of Quai (Alex, Bea) and a member of
 * Depot (Carl). Each test starts its own app (or cluster) and builds this world on it.
 */
import type { DispatchRequest } from '@talkgroup/protocol';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Account, createMember, signUpAdmin, type TestApp } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

export interface QueueWorld {
  admin: Account;
  dana: Account;
  sam: Account;
  olga: Account;
  alex: Account;
  bea: Account;
  carl: Account;
  quai: ChannelSummary;
  depot: ChannelSummary;
}

export async function queueWorld(app: TestApp): Promise<QueueWorld> {
  const admin = await signUpAdmin(app);
  const dana = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
  const sam = await createWithRole(app, admin, 'dispatcher', { firstName: 'Sam', lastName: 'Desk' });
  const olga = await createWithRole(app, admin, 'dispatcher', { firstName: 'Olga', lastName: 'Other' });
  const alex = await createMember(app, admin, { firstName: 'Alex', lastName: 'Martin' });
  const bea = await createMember(app, admin, { firstName: 'Bea', lastName: 'Martin' });
  const carl = await createMember(app, admin, { firstName: 'Carl', lastName: 'Depot' });
  const quai = await app.services.channels.create('Quai');
  const depot = await app.services.channels.create('Depot');
  await app.services.memberships.add(quai.id, [dana.id, sam.id, alex.id, bea.id]);
  await app.services.memberships.add(depot.id, [olga.id, carl.id]);
  return { admin, dana, sam, olga, alex, bea, carl, quai, depot };
}

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
