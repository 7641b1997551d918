/**
 * The people and the channel of the private calls' tests (private-calls*.test.ts): an administrator, a desk
 * (dispatcher), two members of the channel North and one of no channel, on an app whose calls ring 1.5 s; and
 * the call requests as a party's page makes them.
 */
import type { Dialect } from '../src/db/open.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

export interface PrivateCallCast {
  app: TestApp;
  url: string;
  admin: Account;
  desk: Account;
  mia: Account;
  max: Account;
  stranger: Account;
  channelId: number;
}

export async function privateCallCast(dialect: Dialect): Promise<PrivateCallCast> {
  const app = await startApp(dialect, { privateCallRingMs: 1500 });
  const url = await listen(app);
  const admin = await signUpAdmin(app);
  const desk = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
  const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
  const max = await createMember(app, admin, { firstName: 'Max', lastName: 'Field' });
  const stranger = await createMember(app, admin, { firstName: 'Sam', lastName: 'Elsewhere' });
  const channelId = (await app.call('/user/api/createChannel', { channelName: 'North' }, admin.token)).body.res.id;
  await app.services.memberships.add(channelId, [desk.id, mia.id, max.id]);
  return { app, url, admin, desk, mia, max, stranger, channelId };
}

/**
 * Starting, answering and ending a call, on the app of the test running now; a person online (a socket that
 * takes each push once), closed with the others by `closeSockets` after the test.
 */
export function callRequests(appNow: () => TestApp, urlNow: () => string) {
  const clients: TestClient[] = [];
  return {
    online: async (account: Account) => {
      const client = await connect(urlNow(), account.token, { pushesOnce: true });
      clients.push(client);
      return client;
    },
    closeSockets: () => {
      for (const client of clients.splice(0)) client.close();
    },
    start: (from: Account, to: Account) => appNow().call('/user/api/startPrivateCall', { userId: to.id }, from.token),
    answer: (by: Account, callId: number, accept: boolean) =>
      appNow().call('/user/api/answerPrivateCall', { callId, accept }, by.token),
    hangUp: (by: Account, callId: number) => appNow().call('/user/api/endPrivateCall', { callId }, by.token),
  };
}
