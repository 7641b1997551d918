/**
 * Private calls for compliance (issues 35 and 47): exported only with PRIVATE_CALLS_AUDITABLE=true and a reason,
 * listed without their content, each time audited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('a private call exported for compliance on %s', (dialect) => {
  it('exports a call only with PRIVATE_CALLS_AUDITABLE=true and a reason, audited; never by its channel id', async () => {
    for (const auditable of [false, true]) {
      const app = await startApp(dialect, { privateCallsAuditable: auditable });
      try {
        const admin = await signUpAdmin(app);
        const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
        const { callId } = (await app.call('/user/api/startPrivateCall', { userId: mia.id }, admin.token)).body.res;
        await app.call('/user/api/answerPrivateCall', { callId, accept: true }, mia.token);
        await app.call('/user/api/endPrivateCall', { callId }, mia.token);
        const hidden = (await app.call('/user/api/getPrivateCalls', {}, mia.token)).body.res[0].channelId;
        const hour = {
          from: new Date(Date.now() - 3600_000).toISOString(),
          to: new Date(Date.now() + 1000).toISOString(),
        };
        const exportIt = (body: object) => app.call('/user/api/exportVoiceMessages', { ...hour, ...body }, admin.token);
        expect((await exportIt({ channelId: hidden })).status).toBe(404);
        const withReason = await exportIt({ callId, reason: 'Court order 2024-17' });
        const audit = (await app.call('/user/api/getAuditLog', { targetType: 'privateCall' }, admin.token)).body.res;
        if (!auditable) {
          expect(withReason.status).toBe(404);
          expect(audit.entries).toEqual([]);
          continue;
        }
        expect((await exportIt({ callId })).status).toBe(400);
        expect(withReason.status).toBe(200);
        expect(audit.entries).toEqual([
          expect.objectContaining({
            action: 'privateCall.export',
            actor: { id: admin.id, name: expect.any(String) },
            targetId: callId,
            changes: { reason: { before: null, after: 'Court order 2024-17' } },
          }),
        ]);
        // A member who may not export voice may not export a call either.
        expect(
          (await app.call('/user/api/exportVoiceMessages', { ...hour, callId, reason: 'x' }, mia.token)).status,
        ).toBe(403);
      } finally {
        await app.close();
      }
    }
  });
});

describe.each(databases)('private calls listed for compliance on %s (issue 47)', (dialect) => {
  let app: TestApp;
  afterEach(async () => {
    await app.close();
  });
  const list = (token: string, body: object = {}) => app.call('/user/api/listPrivateCalls', body, token);
  const listings = async (token: string) =>
    (await app.call('/user/api/getAuditLog', { targetType: 'privateCall' }, token)).body.res.entries.filter(
      (entry: { action: string }) => entry.action === 'privateCall.list',
    );

  it('answers 403 with a sentence without PRIVATE_CALLS_AUDITABLE, and audits nothing', async () => {
    app = await startApp(dialect);
    const admin = await signUpAdmin(app);
    const refused = await list(admin.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      success: false,
      code: 'private_calls_not_auditable',
      result: 'Private calls are not open to audit on this server: it runs without PRIVATE_CALLS_AUDITABLE=true.',
    });
    expect(await listings(admin.token)).toEqual([]);
  });

  it('lists the calls of [from, to) newest first with their parties and length, nothing of their content, audited', async () => {
    app = await startApp(dialect, { privateCallsAuditable: true });
    const admin = await signUpAdmin(app);
    const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
    const max = await createMember(app, admin, { firstName: 'Max', lastName: 'Field' });
    let lastStart = 0;
    const call = async (to: Account, how: 'ended' | 'declined' | 'active') => {
      // Each call starts in a millisecond of its own, so that a bound can fall between two of them.
      while (Date.now() <= lastStart) await new Promise((resolve) => setImmediate(resolve));
      const { callId } = (await app.call('/user/api/startPrivateCall', { userId: to.id }, admin.token)).body.res;
      lastStart = Date.now();
      await app.call('/user/api/answerPrivateCall', { callId, accept: how !== 'declined' }, to.token);
      if (how === 'ended') await app.call('/user/api/endPrivateCall', { callId }, to.token);
      return callId as number;
    };
    const ended = await call(mia, 'ended');
    const declined = await call(max, 'declined');
    const active = await call(mia, 'active');

    const all = await list(admin.token);
    expect(all.status).toBe(200);
    expect(all.body.hasMore).toBe(false);
    const [third, second, first] = all.body.res;
    expect(all.body.res.map((c: { callId: number }) => c.callId)).toEqual([active, declined, ended]);
    const admin_ = { userId: admin.id, name: expect.any(String) };
    expect(first).toEqual({
      callId: ended,
      parties: [admin_, { userId: mia.id, name: 'Mia Field' }],
      startedAt: expect.any(String),
      answeredAt: expect.any(String),
      endedAt: expect.any(String),
      durationMs: Date.parse(first.endedAt) - Date.parse(first.answeredAt),
      state: 'ended',
    });
    expect(second).toEqual({
      callId: declined,
      parties: [admin_, { userId: max.id, name: 'Max Field' }],
      startedAt: expect.any(String),
      answeredAt: null,
      endedAt: expect.any(String),
      durationMs: 0,
      state: 'declined',
    });
    expect(third).toMatchObject({ callId: active, endedAt: null, state: 'active' });
    expect(third.durationMs).toBeGreaterThanOrEqual(0);

    // `from` is in the period, `to` is not; a limit says that older calls are left out.
    const since = await list(admin.token, { from: second.startedAt });
    expect(since.body.res.map((c: { callId: number }) => c.callId)).toEqual([active, declined]);
    const before = await list(admin.token, { to: second.startedAt });
    expect(before.body.res.map((c: { callId: number }) => c.callId)).toEqual([ended]);
    const newest = await list(admin.token, { limit: 1 });
    expect(newest.body).toMatchObject({ res: [{ callId: active }], hasMore: true });

    expect((await list(admin.token, { from: second.startedAt, to: second.startedAt })).status).toBe(400);
    expect((await list(admin.token, { limit: 501 })).status).toBe(400);
    // Only one who may export a call's voice lists them; a refusal is not audited.
    expect((await list(mia.token)).status).toBe(403);

    const audited = await listings(admin.token);
    expect(audited).toHaveLength(4);
    expect(audited.at(-1)).toMatchObject({
      actor: { id: admin.id },
      action: 'privateCall.list',
      targetType: 'privateCall',
      changes: { from: { before: null, after: null }, to: { before: null, after: null } },
    });
    expect(audited[2].changes).toEqual({
      from: { before: null, after: second.startedAt },
      to: { before: null, after: null },
    });
  });
});
