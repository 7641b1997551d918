/**
 * The dispatcher's call queue (issue 49), step by step over HTTP and sockets on both databases: asking (one open
 * request per member and channel), the one order every dispatcher sees, who sees what (a member its own, a
 * dispatcher its channels'), the take race, a take by private call or on the channel, send back with the waiting
 * time kept, close, cancel, and each step's activity with its times.
 */
import type { Activity, DispatchRequest } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { ask, nextChange, QUEUE_CAST } from './dispatch-queue-world.ts';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('the dispatch queue on %s', (dialect) => {
  const w = world(dialect, QUEUE_CAST);
  const list = async (account: Account, body: object = {}): Promise<DispatchRequest[]> => {
    const answer = await w.app.call('/user/api/listDispatchCalls', body, account.token);
    expect(answer.status).toBe(200);
    return answer.body.res;
  };

  it('queues requests high priority first, then oldest; one open request per member and channel; each sees only what it may', async () => {
    const danaDesk = await w.open(w.dana);
    const olgaDesk = await w.open(w.olga);
    const beaPhone = await w.open(w.bea);

    const first = await ask(w.app, w.alex, w.quai.id, { note: 'Pallet fell' });
    expect(first.status).toBe(200);
    expect(first.body.res).toEqual({ requestId: expect.any(Number), position: 1 });
    const alexId = first.body.res.requestId;
    const pushed = await nextChange(danaDesk, alexId);
    expect(pushed).toMatchObject({
      requestId: alexId,
      channelId: w.quai.id,
      channelName: 'Quai',
      requester: { userId: w.alex.id, name: 'Alex Martin' },
      priority: 'normal',
      note: 'Pallet fell',
      state: 'waiting',
      position: 1,
    });
    expect(pushed.waitedMs).toBeGreaterThanOrEqual(0);

    const again = await ask(w.app, w.alex, w.quai.id);
    expect(again.status).toBe(409);
    expect(again.body.result).toMatch(/already asked for dispatch/);

    // Bea's urgent request goes ahead of Alex's: Alex is told its new place.
    const urgent = await ask(w.app, w.bea, w.quai.id, { priority: 'high' });
    expect(urgent.body.res.position).toBe(1);
    const beaId = urgent.body.res.requestId;
    expect(await nextChange(danaDesk, alexId, (r) => r.position === 2)).toMatchObject({ state: 'waiting' });
    expect(await nextChange(beaPhone, beaId)).toMatchObject({ position: 1, priority: 'high' });

    const depot = await ask(w.app, w.carl, w.depot.id);
    expect(depot.body.res.position).toBe(3);

    // The one order: Bea (high), Alex, Carl; each sees its share.
    expect((await list(w.dana)).map((r) => [r.requestId, r.position])).toEqual([
      [beaId, 1],
      [alexId, 2],
    ]);
    expect((await list(w.admin)).map((r) => r.requester.name)).toEqual(['Bea Martin', 'Alex Martin', 'Carl Depot']);
    expect((await list(w.olga)).map((r) => r.requester.name)).toEqual(['Carl Depot']);
    expect((await list(w.bea)).map((r) => r.requestId)).toEqual([beaId]);
    expect(await list(w.bea, { state: 'taken' })).toEqual([]);

    // Nobody hears of another channel's or another member's request.
    await olgaDesk.flush();
    await beaPhone.flush();
    expect(olgaDesk.all('dispatchCallsChanged').map((r: DispatchRequest) => r.requestId)).toEqual([
      depot.body.res.requestId,
    ]);
    expect(beaPhone.all('dispatchCallsChanged').every((r: DispatchRequest) => r.requester.userId === w.bea.id)).toBe(
      true,
    );

    // Nor acts on it: Olga may not take Quai's, Bea may not cancel Alex's.
    expect(
      (await w.app.call('/user/api/takeDispatchCall', { requestId: alexId, answer: 'channel' }, w.olga.token)).status,
    ).toBe(404);
    expect((await w.app.call('/user/api/cancelDispatchCall', { requestId: alexId }, w.bea.token)).status).toBe(404);
    expect(
      (await w.app.call('/user/api/takeDispatchCall', { requestId: alexId, answer: 'channel' }, w.bea.token)).status,
    ).toBe(403);
    expect((await w.app.call('/user/api/requestDispatchCall', { channelId: w.depot.id }, w.alex.token)).status).toBe(
      403,
    );
    const bad = await w.app.call(
      '/user/api/requestDispatchCall',
      { channelId: w.quai.id, priority: 'urgent' },
      w.sam.token,
    );
    expect(bad.status).toBe(400);
  });

  it('gives a request to one of two dispatchers taking it at once; the other gets "Already taken by"', async () => {
    const alexPhone = await w.open(w.alex);
    const { requestId } = (await ask(w.app, w.alex, w.quai.id)).body.res;
    const [a, b] = await Promise.all([
      w.app.call('/user/api/takeDispatchCall', { requestId, answer: 'channel' }, w.dana.token),
      w.app.call('/user/api/takeDispatchCall', { requestId, answer: 'channel' }, w.sam.token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    const winner = won.body.res.heldBy.name as string;
    expect(['Dana Desk', 'Sam Desk']).toContain(winner);
    expect(lost.body.result).toBe(`Already taken by ${winner}.`);
    expect(won.body.res).toMatchObject({ state: 'taken', answer: 'channel', position: null });
    expect(await nextChange(alexPhone, requestId, (r) => r.state === 'taken')).toMatchObject({
      heldBy: { name: winner },
      answer: 'channel',
    });
    const takes = await w.app.services.db
      .selectFrom('activities')
      .selectAll()
      .where('type', '=', 'dispatch_take')
      .execute();
    expect(takes).toHaveLength(1);
  });

  it('rings the member at once for a private answer; a declined call leaves the request taken', async () => {
    const alexPhone = await w.open(w.alex);
    const { requestId } = (await ask(w.app, w.alex, w.quai.id)).body.res;
    const taken = await w.app.call('/user/api/takeDispatchCall', { requestId, answer: 'private' }, w.dana.token);
    expect(taken.status).toBe(200);
    expect(taken.body.res).toMatchObject({ state: 'taken', answer: 'private', callId: expect.any(Number) });
    const ring = await alexPhone.next('incomingCall');
    expect(ring).toMatchObject({ callId: taken.body.res.callId, from: { userId: w.dana.id, name: 'Dana Desk' } });
    const declined = await w.app.call(
      '/user/api/answerPrivateCall',
      { callId: ring.callId, accept: false },
      w.alex.token,
    );
    expect(declined.status).toBe(200);
    expect((await list(w.dana))[0]).toMatchObject({ requestId, state: 'taken', heldBy: { userId: w.dana.id } });
  });

  it('sends a request back to its place with its waiting time kept; only its holder or an administrator acts on it', async () => {
    const early = (await ask(w.app, w.alex, w.quai.id)).body.res.requestId;
    const late = (await ask(w.app, w.bea, w.quai.id)).body.res.requestId;
    await w.app.call('/user/api/takeDispatchCall', { requestId: early, answer: 'channel' }, w.dana.token);
    expect((await list(w.sam)).find((r) => r.requestId === late)?.position).toBe(1);
    const waitedBefore = (await list(w.dana)).find((r) => r.requestId === early)?.waitedMs ?? 0;

    for (const path of ['returnDispatchCall', 'closeDispatchCall', 'transferDispatchCall'])
      expect(
        (await w.app.call(`/user/api/${path}`, { requestId: early, toUserId: w.dana.id }, w.sam.token)).body.code,
      ).toBe('dispatch_not_holder');
    const back = await w.app.call('/user/api/returnDispatchCall', { requestId: early }, w.dana.token);
    expect(back.status).toBe(200);
    expect(back.body.res).toMatchObject({ state: 'waiting', position: 1 });
    expect(back.body.res.heldBy).toBeUndefined();
    expect(back.body.res.waitedMs).toBeGreaterThanOrEqual(waitedBefore);
    expect((await list(w.sam)).map((r) => r.requestId)).toEqual([early, late]);
    expect((await w.app.call('/user/api/returnDispatchCall', { requestId: early }, w.dana.token)).status).toBe(409);

    // An administrator closes what another holds.
    await w.app.call('/user/api/takeDispatchCall', { requestId: early, answer: 'channel' }, w.sam.token);
    const closed = await w.app.call('/user/api/closeDispatchCall', { requestId: early }, w.admin.token);
    expect(closed.body.res).toMatchObject({ state: 'closed', endedAt: expect.any(String) });
    expect(closed.body.res.handledMs).toBeGreaterThanOrEqual(0);
    expect((await w.app.call('/user/api/cancelDispatchCall', { requestId: early }, w.alex.token)).status).toBe(409);
    expect((await list(w.alex)).map((r) => r.state)).toEqual(['closed']);
  });

  it('lets the member cancel until it is closed, and records every step with its times', async () => {
    const sam = await w.open(w.sam);
    const { requestId } = (await ask(w.app, w.alex, w.quai.id, { priority: 'high' })).body.res;
    await w.app.call('/user/api/takeDispatchCall', { requestId, answer: 'channel' }, w.dana.token);
    const transferred = await w.app.call(
      '/user/api/transferDispatchCall',
      { requestId, toUserId: w.sam.id },
      w.dana.token,
    );
    expect(transferred.body.res).toMatchObject({
      state: 'transferring',
      transferTo: { userId: w.sam.id, name: 'Sam Desk' },
    });
    expect(await nextChange(sam, requestId, (r) => r.state === 'transferring')).toMatchObject({
      heldBy: { name: 'Dana Desk' },
    });
    const cancelled = await w.app.call('/user/api/cancelDispatchCall', { requestId }, w.alex.token);
    expect(cancelled.body.res.state).toBe('cancelled');
    expect(await nextChange(sam, requestId, (r) => r.state === 'cancelled')).toMatchObject({
      endedAt: expect.any(String),
    });

    const log = await w.app.call('/user/api/getAllActivities/', { start: 0, limit: 50 }, w.admin.token);
    const steps: Activity[] = log.body.res.activities.filter((a: Activity) => a.type.startsWith('dispatch_'));
    expect(steps.map((a) => a.type).reverse()).toEqual([
      'dispatch_request',
      'dispatch_take',
      'dispatch_transfer',
      'dispatch_cancel',
    ]);
    const [cancel, transfer, take, asked] = steps;
    expect(asked).toMatchObject({
      user: { id: w.alex.id },
      channel: { name: 'Quai' },
      dispatch: { requestId, requester: 'Alex Martin', priority: 'high', waitedMs: 0 },
    });
    expect(take).toMatchObject({
      user: { id: w.dana.id },
      dispatch: { answer: 'channel', waitedMs: expect.any(Number) },
    });
    expect(transfer).toMatchObject({
      user: { id: w.dana.id },
      dispatch: { to: 'Sam Desk', handledMs: expect.any(Number) },
    });
    expect(cancel).toMatchObject({ user: { id: w.alex.id }, dispatch: { handledMs: expect.any(Number) } });
  });
});
