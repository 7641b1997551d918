/**
 * A member cannot flood the dispatchers (issue 57, item 6): per user, at most 10 dispatch requests and 10 cancels
 * a minute, and 20 changes of its own status. Past that, 429 with `seconds` and a sentence in the caller's
 * language, and nothing written or pushed for the refused call. An SOS is never refused by them. The minute
 * slides (each call leaves it a minute after it was made), and every instance counts the same calls in Redis.
 */
import type { DispatchRequest } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CounterStore, memoryCounterStore, redisCounterStore } from '../src/auth/counter-store.ts';
import { DISPATCH_REQUEST_LIMIT, slidingCallLimiter } from '../src/auth/rate-limit.ts';
import { HttpError } from '../src/http/errors.ts';
import { ask, QUEUE_CAST } from './dispatch-queue-world.ts';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.each(databases)('a member who calls dispatch in a loop on %s', (dialect) => {
  const w = world(dialect, QUEUE_CAST);
  const connected = (account: Account) => w.open(account, { pushesOnce: true });
  /** The call as a browser in that language makes it. */
  const inLanguage = async (language: string, path: string, body: object, account: Account) => {
    const answer = await w.app.fastify.inject({
      method: 'POST',
      url: path,
      headers: { 'x-access-token': account.token, 'accept-language': language },
      payload: body,
    });
    return { status: answer.statusCode, body: answer.json() };
  };
  const activities = async (type: string) =>
    (
      await w.app.services.db
        .selectFrom('activities')
        .select('id')
        .where('type', '=', type)
        .where('user_id', '=', w.alex.id)
        .execute()
    ).length;
  const sos = () => w.app.call('/user/api/sendEmergencyAlert', { channelId: w.quai.id }, w.alex.token);

  it('refuses the 11th request and the 11th cancel of a minute with 429 and seconds, writes and pushes nothing for them, and still takes an SOS', async () => {
    const desk = await connected(w.dana);
    const asked: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const request = await ask(w.app, w.alex, w.quai.id, { priority: 'high' });
      expect(request.status).toBe(200);
      asked.push(request.body.res.requestId);
      expect(
        (await w.app.call('/user/api/cancelDispatchCall', { requestId: request.body.res.requestId }, w.alex.token))
          .status,
      ).toBe(200);
    }

    const refused = await ask(w.app, w.alex, w.quai.id, { priority: 'high', note: 'again' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'too_many_dispatch_requests' });
    const { seconds } = refused.body.params;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.body.result).toBe(
      `Too many calls to dispatch: wait ${seconds} seconds before calling again. An SOS always goes through.`,
    );
    const french = await inLanguage('fr-FR,fr', '/user/api/requestDispatchCall', { channelId: w.quai.id }, w.alex);
    expect(french.status).toBe(429);
    expect(french.body.result).toMatch(/^Trop d’appels au dispatch : attendez \d+ secondes avant de rappeler\./);
    const german = await inLanguage('de', '/user/api/requestDispatchCall', { channelId: w.quai.id }, w.alex);
    expect(german.body.result).toMatch(/^Zu viele Rufe an die Leitstelle: Warten Sie \d+ Sekunden/);

    // Ten requests written and pushed, none for the refused ones.
    expect(await activities('dispatch_request')).toBe(10);
    const rows = await w.app.services.db
      .selectFrom('dispatch_requests')
      .select('id')
      .where('requester_id', '=', w.alex.id)
      .execute();
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(asked);
    await desk.flush();
    const pushed: DispatchRequest[] = desk.all('dispatchCallsChanged');
    expect(pushed.filter((request) => request.state === 'waiting').map((request) => request.requestId)).toEqual(asked);

    // A request left open (made before this minute's loop, as far as the limit knows): its cancel is the 11th.
    const open = await w.app.services.dispatchQueue.request(
      { userId: w.alex.id, role: 'member' },
      { channelId: w.quai.id, priority: 'normal', note: '' },
    );
    const cancel = await w.app.call('/user/api/cancelDispatchCall', { requestId: open.requestId }, w.alex.token);
    expect(cancel.status).toBe(429);
    expect(cancel.body).toMatchObject({ code: 'too_many_dispatch_cancels', params: { seconds: expect.any(Number) } });
    expect(cancel.body.result).toMatch(/^Too many dispatch requests cancelled: wait \d+ seconds/);
    expect(await activities('dispatch_cancel')).toBe(10);
    const still = await w.app.services.dispatchRequests.byId(open.requestId);
    expect(still?.state).toBe('waiting');
    await desk.flush();
    expect(
      desk.all('dispatchCallsChanged').filter((request: DispatchRequest) => request.state === 'cancelled'),
    ).toHaveLength(10);

    // The limit is Alex's: Bea asks, and the desk takes Alex's open request, as usual.
    expect((await ask(w.app, w.bea, w.quai.id)).status).toBe(200);
    expect(
      (await w.app.call('/user/api/takeDispatchCall', { requestId: open.requestId, answer: 'channel' }, w.dana.token))
        .status,
    ).toBe(200);

    const alert = await sos();
    expect(alert.status).toBe(200);
    expect(alert.body.res).toMatchObject({ userId: w.alex.id, channelId: w.quai.id });
    // Its own rule stays: one alert per 30 s.
    expect((await sos()).status).toBe(429);
  });

  it('refuses the 21st status change of a minute; the desk still sets the member’s status, and an SOS still goes', async () => {
    const admin = await connected(w.admin);
    const statuses: Array<{ id: number }> = (await w.app.call('/user/api/listStatuses', {}, w.alex.token)).body.res;
    const [available, enRoute, onScene] = statuses.map((status) => status.id);
    for (let change = 0; change < 20; change += 1) {
      const statusId = change % 2 === 0 ? enRoute : available;
      expect((await w.app.call('/user/api/setMyStatus', { statusId }, w.alex.token)).status).toBe(200);
    }

    const refused = await w.app.call('/user/api/setMyStatus', { statusId: onScene }, w.alex.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'too_many_status_changes', params: { seconds: expect.any(Number) } });
    expect(refused.body.params.seconds).toBeLessThanOrEqual(60);
    expect(refused.body.result).toMatch(/^Too many status changes: wait \d+ seconds/);
    const french = await inLanguage('fr', '/user/api/setMyStatus', { statusId: onScene }, w.alex);
    expect(french.body.result).toMatch(/^Trop de changements de statut : attendez \d+ secondes/);

    const mine = (await w.app.call('/user/api/getMemberStatuses', { userIds: [w.alex.id] }, w.alex.token)).body.res;
    expect(mine).toMatchObject([{ userId: w.alex.id, statusId: available }]);
    expect(await activities('status_change')).toBe(20);
    await admin.flush();
    const pushes = admin.all('memberStatusChanged').filter((status: { userId: number }) => status.userId === w.alex.id);
    expect(pushes).toHaveLength(20);
    expect(pushes.some((status: { statusId: number }) => status.statusId === onScene)).toBe(false);

    // A dispatcher's change of it is the desk's, not the member's: not counted.
    const byDesk = await w.app.call('/user/api/setUserStatus', { userId: w.alex.id, statusId: onScene }, w.dana.token);
    expect(byDesk.status).toBe(200);
    expect((await sos()).status).toBe(200);
  });
});

describe.each([
  ['in memory', () => memoryCounterStore()],
  ...(redisUrl
    ? [['in Redis', () => redisCounterStore(redisUrl, `test-flood-${process.pid}-${Date.now()}:`, () => {})] as const]
    : []),
] as Array<[string, () => CounterStore]>)('the member limits counted %s', (_where, open) => {
  let store: CounterStore;
  beforeEach(() => {
    store = open();
  });
  afterEach(() => store.close());

  it('lets ten calls a minute through, even sent at once, and tells the eleventh how long to wait', async () => {
    const take = slidingCallLimiter(store, 'request', DISPATCH_REQUEST_LIMIT);
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => refusal(take(7))));
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(10);
    const refused = outcomes.find((outcome) => outcome !== undefined);
    expect(refused).toMatchObject({ statusCode: 429, code: 'too_many_dispatch_requests' });
    // About a minute: the first of the ten leaves it then (a loaded machine may take a few seconds to get here).
    expect(refused?.params?.seconds).toBeGreaterThan(30);
    expect(refused?.params?.seconds).toBeLessThanOrEqual(60);
    // Another user has ten of its own.
    expect(await refusal(take(8))).toBeUndefined();
  });
});

describe('the member limits’ sliding minute', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('frees one call as each leaves the minute, not all at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const take = slidingCallLimiter(memoryCounterStore(), 'request', DISPATCH_REQUEST_LIMIT);
    for (let call = 0; call < 5; call += 1) expect(await refusal(take(7))).toBeUndefined();
    vi.setSystemTime(1_030_000);
    for (let call = 0; call < 5; call += 1) expect(await refusal(take(7))).toBeUndefined();
    vi.setSystemTime(1_059_999);
    expect((await refusal(take(7)))?.params).toEqual({ seconds: 1 });
    // The first five have left the minute, the last five have not: five more, then 30 s to wait.
    vi.setSystemTime(1_060_000);
    for (let call = 0; call < 5; call += 1) expect(await refusal(take(7))).toBeUndefined();
    expect((await refusal(take(7)))?.params).toEqual({ seconds: 30 });
  });
});

/** The 429 a limited call threw, or undefined when it was let through. */
function refusal(call: Promise<void>): Promise<HttpError | undefined> {
  return call.then(
    () => undefined,
    (error: unknown) => (error instanceof HttpError ? error : Promise.reject(error)),
  );
}
