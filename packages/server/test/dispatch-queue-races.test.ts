/**
 * The dispatch queue's steps check who holds a request, or whom it is transferred to, in the same UPDATE as its
 * state (issue 57, item 6): a step whose earlier read is out of date by the time it writes changes nothing and
 * gets the queue's conflict answer. HTTP cannot place another step between one step's read and its write at will,
 * so these tests run the app's own queue steps over its store, with the read handed back after the other step
 * (`meanwhile`) has landed, or with the queue's clock moved on; everything else is the app's, on both databases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Reader } from '../src/channels/access.ts';
import { dispatchQueue } from '../src/dispatch/queue.ts';
import type { DispatchQueueStore } from '../src/dispatch/queue-store.ts';
import { dispatchQueueSweep } from '../src/dispatch/queue-sweep.ts';
import { ask, type QueueWorld, queueWorld } from './dispatch-queue-world.ts';
import { type Account, databases, startApp, type TestApp } from './harness.ts';

describe.each(databases)('the dispatch queue’s steps against a step in between on %s', (dialect) => {
  let app: TestApp;
  let w: QueueWorld;
  let requestId: number;
  const dispatcher = (account: Account): Reader => ({ userId: account.id, role: 'dispatcher' });
  const http = async (path: string, body: object, account: Account) => {
    const answer = await app.call(`/user/api/${path}`, { requestId, ...body }, account.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  const row = async () => app.services.dispatchRequests.byId(requestId);
  const steps = async (type: string) =>
    (await app.services.db.selectFrom('activities').select('user_id').where('type', '=', type).execute()).map(
      (step) => step.user_id,
    );

  /**
   * The app's queue steps, as they run when `meanwhile` lands between their first read of the request and their
   * write; `now`: the queue's clock.
   */
  function queue(options: { meanwhile?: () => Promise<void>; now?: () => number } = {}) {
    const store = app.services.dispatchRequests;
    let meanwhile = options.meanwhile;
    const raced: DispatchQueueStore = {
      ...store,
      async byId(id) {
        const read = await store.byId(id);
        const step = meanwhile;
        meanwhile = undefined;
        if (step) await step();
        return read;
      },
    };
    return dispatchQueue({
      store: raced,
      access: app.services.access,
      users: app.services.users,
      privateCalls: app.services.privateCalls,
      activities: app.services.activities,
      events: app.services.events,
      limits: app.config.dispatch,
      onError: (error) => {
        throw error;
      },
      ...(options.now ? { now: options.now } : {}),
    });
  }
  /** Dana sends it back and Sam takes it: taken again, by another. */
  const samTakesItOver = async () => {
    await http('returnDispatchCall', {}, w.dana);
    await http('takeDispatchCall', { answer: 'channel' }, w.sam);
  };

  beforeEach(async () => {
    app = await startApp(dialect);
    w = await queueWorld(app);
    requestId = (await ask(app, w.alex, w.quai.id)).body.res.requestId;
    await http('takeDispatchCall', { answer: 'channel' }, w.dana);
  });
  afterEach(async () => {
    await app.close();
  });

  it('refuses a send back by a dispatcher who no longer holds the request, though it is taken again', async () => {
    await expect(queue({ meanwhile: samTakesItOver }).sendBack(dispatcher(w.dana), requestId)).rejects.toMatchObject({
      statusCode: 409,
      code: 'dispatch_already_taken',
      params: { name: 'Sam Desk' },
    });
    expect(await row()).toMatchObject({ state: 'taken', held_by_id: w.sam.id });
    expect(await steps('dispatch_return')).toEqual([w.dana.id]);
  });

  it('refuses a close by a dispatcher, or an administrator, who read another holder', async () => {
    await expect(queue({ meanwhile: samTakesItOver }).close(dispatcher(w.dana), requestId)).rejects.toMatchObject({
      statusCode: 409,
      code: 'dispatch_already_taken',
    });
    // The administrator read it in Sam's hands; Sam sends it back meanwhile: it closes nothing it did not see.
    const samSendsBack = () => http('returnDispatchCall', {}, w.sam);
    await expect(
      queue({ meanwhile: samSendsBack }).close({ userId: w.admin.id, role: 'admin' }, requestId),
    ).rejects.toMatchObject({ statusCode: 409, code: 'dispatch_not_taken' });
    expect(await row()).toMatchObject({ state: 'waiting', held_by_id: null, ended_at: null });
    expect(await steps('dispatch_close')).toEqual([]);
  });

  it('refuses a transfer by a dispatcher who no longer holds the request', async () => {
    await expect(
      queue({ meanwhile: samTakesItOver }).transfer(dispatcher(w.dana), requestId, w.admin.id),
    ).rejects.toMatchObject({ statusCode: 409, code: 'dispatch_already_taken' });
    expect(await row()).toMatchObject({ state: 'taken', held_by_id: w.sam.id, transfer_to_id: null });
    expect(await steps('dispatch_transfer')).toEqual([]);
  });

  it('refuses an expired transfer to its first target, before and after the sweep brings it back', async () => {
    await http('transferDispatchCall', { toUserId: w.sam.id }, w.dana);
    const until = Date.parse((await row())?.transfer_until ?? '');
    const sam = dispatcher(w.sam);

    // Past its time, not yet swept: still `transferring`, and no longer Sam's to accept.
    await expect(queue({ now: () => until }).answerTransfer(sam, requestId, true)).rejects.toMatchObject({
      statusCode: 403,
      code: 'dispatch_not_transfer_target',
    });
    expect(await row()).toMatchObject({ state: 'transferring', held_by_id: w.dana.id, transfer_to_id: w.sam.id });

    // Swept back to Dana, who hands it to the administrator; Sam's answer, on what it read before, takes nothing.
    const sweepBackThenToAdmin = async () => {
      await dispatchQueueSweep({
        store: app.services.dispatchRequests,
        queue: app.services.dispatchQueue,
        access: app.services.access,
        users: app.services.users,
        limits: app.config.dispatch,
        onError: (error) => {
          throw error;
        },
        now: () => until,
      }).sweepNow();
      expect(await row()).toMatchObject({ state: 'taken', held_by_id: w.dana.id, transfer_to_id: null });
      await http('transferDispatchCall', { toUserId: w.admin.id }, w.dana);
    };
    await expect(queue({ meanwhile: sweepBackThenToAdmin }).answerTransfer(sam, requestId, true)).rejects.toMatchObject(
      { statusCode: 403, code: 'dispatch_not_transfer_target' },
    );
    expect(await row()).toMatchObject({ state: 'transferring', held_by_id: w.dana.id, transfer_to_id: w.admin.id });
    expect(await steps('dispatch_take')).toEqual([w.dana.id]);

    // Within its time, its target takes it over.
    const admin = { userId: w.admin.id, role: 'admin' };
    const accepted = await queue({ now: () => until - 1 }).answerTransfer(admin, requestId, true);
    expect(accepted).toMatchObject({ state: 'taken', heldBy: { userId: w.admin.id } });
  });
});
