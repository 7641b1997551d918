/**
 * Watching goes down the ranks, is counted, and is audited before it acts (issue 69 items 6 and 7, live video):
 * with remoteVideo 'without_consent', requestVideo for a user whose role is equal to or above the caller's is
 * refused with 403 (a dispatcher for an administrator or another dispatcher; an administrator may ask anyone but
 * himself); one request pending per member, whoever asks (409); at most 10 requestVideo a minute per caller and 10
 * video_start a minute per user (429 and a sentence, the socket's ack as the video events answer); and a request or
 * a start without consent whose audit row cannot be written (the insert refused by the database itself) does not
 * happen: 503, nothing sent, nothing started, and it can be done once the audit log takes rows again.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import { createWithRole } from './role-fixtures.ts';
import { type VideoWorld, videoWorld } from './video-world.ts';

describe.each(databases)('live video’s limits on %s', { timeout: 90_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });

  const ask = (userId: number, token: string, channelId = w.field.id) =>
    w.app.call('/user/api/requestVideo', { userId, channelId }, token);
  const withoutConsent = async () => {
    const set = await w.app.call('/user/api/setVideoSettings', { remoteVideo: 'without_consent' }, w.admin.token);
    expect(set.status).toBe(200);
  };
  const actions = async () =>
    (await w.app.services.audit.page({ start: 0, limit: 100 })).entries
      .map((entry) => entry.action)
      .filter((action) => action.startsWith('video.'));

  /** The database itself refuses the audit rows of this action (a trigger), until `allow`. */
  async function refuseAudit(action: string): Promise<{ allow(): Promise<void> }> {
    const { db } = w.app.services;
    if (dialect === 'postgres') {
      await sql`create function refuse_video_audit() returns trigger language plpgsql as $$
        begin raise exception 'the audit log refuses it'; end $$`.execute(db);
      await sql`create trigger refuse_video_audit before insert on audit_log for each row
        when (new.action = ${sql.lit(action)}) execute function refuse_video_audit()`.execute(db);
    } else
      await sql`create trigger refuse_video_audit before insert on audit_log
        when new.action = ${sql.lit(action)} begin select raise(abort, 'the audit log refuses it'); end`.execute(db);
    return {
      async allow() {
        if (dialect === 'postgres') {
          await sql`drop trigger refuse_video_audit on audit_log`.execute(db);
          await sql`drop function refuse_video_audit()`.execute(db);
        } else await sql`drop trigger refuse_video_audit`.execute(db);
      },
    };
  }

  it('refuses filming without consent up the ranks or across them, and lets an administrator film anyone else', async () => {
    w = await videoWorld(dialect);
    const { field } = w;
    const boss = await createWithRole(w.app, w.admin, 'admin', { firstName: 'Bea', lastName: 'Boss' });
    await w.app.services.memberships.add(field.id, [w.admin.id, boss.id, w.otto.id]);
    for (const account of [w.admin, boss, w.otto, w.mia]) await w.open(account);
    // With consent the member decides: a dispatcher may ask an administrator.
    expect((await ask(w.admin.id, w.dana.token)).status).toBe(200);

    await withoutConsent();
    const up = await ask(boss.id, w.dana.token);
    expect(up).toMatchObject({
      status: 403,
      body: {
        code: 'video_without_consent_rank',
        result: 'You may not film without consent a user whose role is equal to or above yours.',
      },
    });
    expect((await ask(w.otto.id, w.dana.token)).body.code).toBe('video_without_consent_rank');
    // Down the ranks: a dispatcher films a member; an administrator a dispatcher and another administrator.
    expect((await ask(w.mia.id, w.dana.token)).status).toBe(200);
    expect((await ask(w.otto.id, w.admin.token)).status).toBe(200);
    expect((await ask(boss.id, w.admin.token)).status).toBe(200);
    expect((await ask(w.admin.id, w.admin.token)).status).toBe(400);
    expect(await actions()).not.toContain('video.start_without_consent');
  });

  it('keeps one request pending per member, whoever asks, and counts 10 requests a minute per caller', async () => {
    w = await videoWorld(dialect);
    const phone = await w.inRoom(w.mia);
    await w.inRoom(w.olaf);
    const first = await ask(w.mia.id, w.dana.token);
    expect(first.status).toBe(200);
    expect(await phone.next('video_request')).toMatchObject({ requestId: first.body.res.requestId });
    const again = await ask(w.mia.id, w.dana.token);
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'video_request_pending', result: expect.stringMatching(/^A video request to this member/) },
    });
    // From another desk too: one question at a time on her phone, and the second desk is not told who asked.
    expect((await ask(w.mia.id, w.admin.token)).body).toMatchObject({ code: 'video_request_pending' });
    expect(JSON.stringify((await ask(w.mia.id, w.admin.token)).body)).not.toMatch(/Dana/);
    // Declined: the next request may come.
    expect(
      await phone.emitAck('video_request_answer', { requestId: first.body.res.requestId, accepted: false }),
    ).toEqual({ success: true });
    expect((await ask(w.mia.id, w.admin.token)).status).toBe(200);

    // Dana has asked twice this minute; 8 more are counted (refused ones too), the 11th is refused before them.
    for (let i = 0; i < 8; i++) {
      const asked = await ask(w.olaf.id, w.dana.token);
      expect([200, 409], `request ${i + 3}`).toContain(asked.status);
    }
    const limited = await ask(w.olaf.id, w.dana.token);
    expect(limited).toMatchObject({
      status: 429,
      body: { code: 'too_many_video_requests', result: expect.stringMatching(/^Too many video requests: wait \d+/) },
    });
    // Another caller is counted apart.
    expect((await ask(w.lena.id, w.admin.token)).body.code).not.toBe('too_many_video_requests');
  });

  it('counts 10 video starts a minute per user, on all of its pages', async () => {
    w = await videoWorld(dialect);
    // Three pages of hers (each under its own socket's event budget): a page's start again is counted too.
    const pages = [await w.inRoom(w.mia), await w.inRoom(w.mia), await w.inRoom(w.mia)];
    for (let i = 0; i < 10; i++) {
      const answer = (await pages[i % pages.length].emitAck('video_start', { room: w.field.rtcSession })) as {
        success: boolean;
      };
      expect(answer.success, `start ${i + 1}`).toBe(true);
    }
    const limited = await pages[1].emitAck('video_start', { room: w.field.rtcSession });
    expect(limited).toEqual({
      success: false,
      status: 429,
      code: 'too_many_video_starts',
      result: expect.stringMatching(/^Too many live videos started: wait \d+ seconds/),
    });
    // Another user still shares.
    const olaf = await w.inRoom(w.olaf);
    expect(await olaf.emitAck('video_start', { room: w.field.rtcSession })).toMatchObject({ success: true });
  });

  it('does not send a request, nor start a video without consent, whose audit row cannot be written', async () => {
    w = await videoWorld(dialect);
    await withoutConsent();
    const phone = await w.inRoom(w.mia);
    const desk = await w.open(w.dana, { console: true });
    const refused = await refuseAudit('video.request');
    const unaudited = await ask(w.mia.id, w.dana.token);
    expect(unaudited).toMatchObject({
      status: 503,
      body: {
        code: 'video_not_audited',
        result: 'The audit log could not be written: nothing was done. Try again later.',
      },
    });
    await phone.flush();
    expect(phone.all('video_request')).toEqual([]);
    await refused.allow();
    // Nothing of it is pending: the next request goes.
    const asked = await ask(w.mia.id, w.dana.token);
    expect(asked.status).toBe(200);
    const { requestId } = asked.body.res;
    expect(await phone.next('video_request')).toMatchObject({ requestId, withoutConsent: true });

    // The page starts without asking, but the start's row cannot be written: nothing starts.
    const startRefused = await refuseAudit('video.start_without_consent');
    expect(await phone.emitAck('video_start', { room: w.field.rtcSession, requestId })).toEqual({
      success: false,
      status: 503,
      code: 'video_not_audited',
      result: 'The audit log could not be written: nothing was done. Try again later.',
    });
    expect((await w.app.call('/user/api/getLiveVideos', {}, w.dana.token)).body.res).toEqual([]);
    await desk.flush();
    expect(desk.all('video_started')).toEqual([]);
    expect(await actions()).toEqual(['video.request']);
    // The request still waits: once the audit log takes rows, the start is audited first, then made.
    await startRefused.allow();
    const started = (await phone.emitAck('video_start', { room: w.field.rtcSession, requestId })) as {
      success: boolean;
      streamId: string;
    };
    expect(started.success).toBe(true);
    expect(await desk.next('video_started')).toMatchObject({ streamId: started.streamId, requestId });
    expect(await actions()).toEqual(['video.start_without_consent', 'video.request']);
    expect(w.app.services.faults.counts().worker).toBe(2);
  });
});
