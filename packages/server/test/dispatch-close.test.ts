/**
 * How a dispatch request ended (issue 58), over HTTP and sockets on both databases: closeDispatchCall's outcome
 * (resolved when not said; anything else 400 with a sentence), its note (500 characters) and incident reference
 * (64); listDispatchCalls and the pushed request say who took it, who closed it, how and with which reference, the
 * member's note unchanged; the dispatch_close activity says them too. And the call of a "Prendre" by private call
 * rings the member with the request and its note.
 */
import type { Activity, DispatchRequest } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { ask, nextChange, QUEUE_CAST } from './dispatch-queue-world.ts';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('closing a dispatch request on %s', (dialect) => {
  const w = world(dialect, QUEUE_CAST);
  const list = async (account: Account): Promise<DispatchRequest[]> =>
    (await w.app.call('/user/api/listDispatchCalls', {}, account.token)).body.res;
  const close = (account: Account, body: object) => w.app.call('/user/api/closeDispatchCall', body, account.token);
  const take = (account: Account, requestId: number, answer: 'private' | 'channel' = 'channel') =>
    w.app.call('/user/api/takeDispatchCall', { requestId, answer }, account.token);

  it('closes with an outcome, a note and a reference; lists and pushes who took it and who closed it', async () => {
    const samDesk = await w.open(w.sam);
    const { requestId } = (await ask(w.app, w.alex, w.quai.id, { note: 'Pallet fell' })).body.res;
    expect((await take(w.dana, requestId)).status).toBe(200);

    for (const [body, sentence] of [
      [{ outcome: 'fixed' }, /outcome: must be resolved, no_action or referred/],
      [{ outcome: 'referred', note: 'n'.repeat(501) }, /note/],
      [{ outcome: 'referred', reference: 'r'.repeat(65) }, /reference/],
    ] as const) {
      const refused = await close(w.dana, { requestId, ...body });
      expect(refused.status).toBe(400);
      expect(refused.body.result).toMatch(sentence);
    }
    expect((await list(w.dana))[0]?.state).toBe('taken');

    // An administrator closes what Dana holds: taken by Dana, closed by the administrator.
    const closed = await close(w.admin, {
      requestId,
      outcome: 'referred',
      note: '  Sent to the fire brigade  ',
      reference: 'INC-2026-0042',
    });
    expect(closed.status).toBe(200);
    const expected = {
      requestId,
      state: 'closed',
      note: 'Pallet fell',
      takenBy: { userId: w.dana.id, name: 'Dana Desk' },
      closedBy: { userId: w.admin.id, name: expect.any(String) },
      outcome: 'referred',
      closeNote: 'Sent to the fire brigade',
      reference: 'INC-2026-0042',
    };
    expect(closed.body.res).toMatchObject(expected);
    expect(closed.body.res.heldBy).toBeUndefined();
    expect(await nextChange(samDesk, requestId, (r) => r.state === 'closed')).toMatchObject(expected);
    expect((await list(w.sam)).find((r) => r.requestId === requestId)).toMatchObject(expected);
    // The member sees its request ended, and how.
    expect((await list(w.alex))[0]).toMatchObject({ state: 'closed', outcome: 'referred' });

    const log = await w.app.call('/user/api/getAllActivities/', { start: 0, limit: 50 }, w.admin.token);
    const entry = log.body.res.activities.find((a: Activity) => a.type === 'dispatch_close');
    expect(entry).toMatchObject({
      user: { id: w.admin.id },
      dispatch: {
        requestId,
        outcome: 'referred',
        closeNote: 'Sent to the fire brigade',
        reference: 'INC-2026-0042',
      },
    });
  });

  it('closes as resolved when no outcome is said (clients written before it), with no note nor reference', async () => {
    const { requestId } = (await ask(w.app, w.bea, w.quai.id)).body.res;
    await take(w.sam, requestId);
    const closed = await close(w.sam, { requestId });
    expect(closed.status).toBe(200);
    expect(closed.body.res).toMatchObject({
      state: 'closed',
      outcome: 'resolved',
      takenBy: { userId: w.sam.id, name: 'Sam Desk' },
      closedBy: { userId: w.sam.id, name: 'Sam Desk' },
    });
    expect(closed.body.res.closeNote).toBeUndefined();
    expect(closed.body.res.reference).toBeUndefined();
    // A request that ended otherwise says nothing of a close.
    const other = (await ask(w.app, w.alex, w.quai.id)).body.res.requestId;
    const cancelled = await w.app.call('/user/api/cancelDispatchCall', { requestId: other }, w.alex.token);
    expect(cancelled.body.res.state).toBe('cancelled');
    for (const field of ['takenBy', 'closedBy', 'outcome']) expect(cancelled.body.res[field]).toBeUndefined();
  });

  it('rings the member for a "Prendre" by private call with the request and its note', async () => {
    const alexPhone = await w.open(w.alex);
    const { requestId } = (await ask(w.app, w.alex, w.quai.id, { note: 'Forklift down, bay 4' })).body.res;
    const taken = await take(w.dana, requestId, 'private');
    expect(taken.status).toBe(200);
    const ring = await alexPhone.next('incomingCall');
    expect(ring).toEqual({
      callId: taken.body.res.callId,
      room: expect.any(String),
      from: { userId: w.dana.id, name: 'Dana Desk' },
      requestId,
      note: 'Forklift down, bay 4',
    });
    // A page that loads while it rings reads it from the call too.
    const calls = await w.app.call('/user/api/getPrivateCalls', {}, w.dana.token);
    expect(calls.body.res[0]).toMatchObject({
      callId: ring.callId,
      request: { requestId, note: 'Forklift down, bay 4' },
    });
    // A call placed otherwise says nothing of a request.
    await w.app.call('/user/api/endPrivateCall', { callId: ring.callId }, w.dana.token);
    const beaPhone = await w.open(w.bea);
    const plain = await w.app.call('/user/api/startPrivateCall', { userId: w.bea.id }, w.sam.token);
    expect(plain.status).toBe(200);
    const plainRing = await beaPhone.next('incomingCall');
    expect(plainRing.requestId).toBeUndefined();
    expect(plainRing.note).toBeUndefined();
  });
});
