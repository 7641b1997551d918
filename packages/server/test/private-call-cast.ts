/**
 * The people and the channel of the private calls' tests (private-calls*.test.ts): an administrator, a desk
 * (dispatcher), two members of the channel North and one of no channel, on an app whose calls ring 1.5 s; and
 * the call requests as a party's page makes them.
 */
import type { Dialect } from '../src/db/open.ts';
import { type Account, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';
import { cast } from './world.ts';

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
  const { north, ...people } = await cast(app, {
    people: {
      desk: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
      max: { role: 'member', firstName: 'Max', lastName: 'Field' },
      stranger: { role: 'member', firstName: 'Sam', lastName: 'Elsewhere' },
    },
    channels: { north: { name: 'North', members: ['desk', 'mia', 'max'], overHttp: true } },
  });
  return { app, url, ...people, channelId: north.id };
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
