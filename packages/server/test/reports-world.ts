/**
 * A known period for the reports' tests (reports.test.ts): two channels (alpha with a dispatcher, bravo with
 * another), a private call's hidden channel, and transmissions, SOS alerts, dispatch steps, missed transmissions
 * and presence samples written straight into the tables with exact times, around the spring change of
 * Europe/Paris (2026-03-29 01:00 UTC: from UTC+1 to UTC+2; New York is already on UTC−4).
 *
 * The period is [FROM, TO); rows at TO, before FROM or in the hidden channel must count nowhere.
 */
import type { Account, TestApp } from './harness.ts';
import { createMember, signUpAdmin } from './harness.ts';
import { createWithRole } from './role-fixtures.ts';

export const FROM = '2026-03-28T12:00:00.000Z';
export const TO = '2026-03-29T12:00:00.000Z';

/** An instant of the period's days: '28T13:00:00' → 2026-03-28T13:00:00.000Z; plus `ms`. */
export const at = (dayAndTime: string, ms = 0) => new Date(Date.parse(`2026-03-${dayAndTime}.000Z`) + ms).toISOString();

export interface ReportsWorld {
  admin: Account;
  desk: Account;
  otherDesk: Account;
  mia: Account;
  noah: Account;
  ben: Account;
  late: Account;
  alpha: number;
  bravo: number;
  hidden: number;
}

export async function reportsWorld(app: TestApp): Promise<ReportsWorld> {
  const admin = await signUpAdmin(app);
  const desk = await createWithRole(app, admin, 'dispatcher');
  const otherDesk = await createWithRole(app, admin, 'dispatcher');
  const mia = await createMember(app, admin);
  const noah = await createMember(app, admin);
  const ben = await createMember(app, admin);
  const late = await createMember(app, admin);
  const { db } = app.services;
  const names: Array<[Account, string]> = [
    [desk, 'Dana Desk'],
    [otherDesk, 'Olly Other'],
    [mia, 'Mia Field'],
    [noah, 'Noah Far'],
    [ben, 'Ben Bravo'],
    [late, 'Lou Late'],
  ];
  for (const [account, name] of names)
    await db.updateTable('users').set({ display_name: name }).where('id', '=', account.id).execute();
  const channel = async (channelName: string) =>
    (await app.call('/user/api/createChannel', { channelName }, admin.token)).body.res.id as number;
  const alpha = await channel('alpha');
  const bravo = await channel('bravo');
  const hiddenRow = await db
    .insertInto('channels')
    .values({
      name: 'private  call  1  2',
      rtc_session: 'private  call  1  2',
      created_at: at('01T00:00:00'),
      hidden: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await app.services.memberships.add(alpha, [desk.id, mia.id, noah.id]);
  await app.services.memberships.add(bravo, [otherDesk.id, ben.id, late.id]);
  // Members long before the period; Lou joined bravo in its middle.
  await db.updateTable('channel_members').set({ created_at: '2026-01-01T00:00:00.000Z' }).execute();
  await db
    .updateTable('channel_members')
    .set({ created_at: at('29T01:00:00') })
    .where('user_id', '=', late.id)
    .execute();
  const world = { admin, desk, otherDesk, mia, noah, ben, late, alpha, bravo, hidden: hiddenRow.id };
  await seedTalk(app, world);
  await seedAlerts(app, world);
  await seedQueue(app, world);
  await seedPresence(app);
  return world;
}

/** Grants in alpha (with their kept takes, heard or not) and takes of bravo, which has no floor. */
async function seedTalk(app: TestApp, w: ReportsWorld): Promise<void> {
  const { db } = app.services;
  const grant = async (userId: number | null, channelId: number, start: string, lengthMs: number | null) =>
    (
      await db
        .insertInto('talk_bursts')
        .values({
          user_id: userId,
          channel_id: channelId,
          channel_name: channelId === w.alpha ? 'alpha' : 'other',
          started_at: start,
          ended_at: lengthMs === null ? null : new Date(Date.parse(start) + lengthMs).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const take = async (
    userId: number | null,
    name: string,
    channelId: number,
    start: string,
    durationMs: number,
    talkBurstId: number | null = null,
  ) =>
    (
      await db
        .insertInto('voice_messages')
        .values({
          channel_id: channelId,
          user_id: userId,
          user_display_name: name,
          file_name: `${Date.parse(start)}-${userId ?? 0}-${channelId}.webm`,
          mime: 'audio/webm',
          size_bytes: 100,
          duration_ms: durationMs,
          talk_burst_id: talkBurstId,
          created_at: start,
          uploaded_at: start,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const heard = async (voiceMessageId: number, userId: number, live: 0 | 1) =>
    db
      .insertInto('voice_heard')
      .values({ voice_message_id: voiceMessageId, user_id: userId, heard_at: at('29T11:00:00'), live })
      .execute();

  const first = await grant(w.mia.id, w.alpha, FROM, 5000);
  const second = await grant(w.mia.id, w.alpha, at('29T00:30:00'), 2000);
  const third = await grant(w.noah.id, w.alpha, at('29T01:30:00'), 6000);
  await grant(w.desk.id, w.alpha, at('29T02:30:00'), null);
  await grant(w.noah.id, w.alpha, TO, 9000);
  await grant(w.noah.id, w.alpha, at('28T11:59:59', 999), 9000);
  await grant(w.noah.id, w.hidden, at('29T03:00:00'), 9000);
  // Kept takes of the grants: talk is counted from the grants, the takes tell who heard them.
  const takeOfFirst = await take(w.mia.id, 'Mia Field', w.alpha, FROM, 4900, first);
  const takeOfSecond = await take(w.mia.id, 'Mia Field', w.alpha, at('29T00:30:00'), 1900, second);
  // Through Janus before issue 58, a take was kept without its grant (talk_burst_id null): the same transmission.
  void third;
  await take(w.noah.id, 'Noah Far', w.alpha, at('29T01:30:00', 40), 5900, null);
  await heard(takeOfFirst, w.mia.id, 1);
  await heard(takeOfFirst, w.desk.id, 0);
  await heard(takeOfSecond, w.mia.id, 1);
  await heard(takeOfSecond, w.desk.id, 1);
  await heard(takeOfSecond, w.noah.id, 0);
  // bravo has no floor: its takes are its transmissions; one by a deleted user.
  const bens = await take(w.ben.id, 'Ben Bravo', w.bravo, at('29T02:30:00'), 3000);
  const gones = await take(null, 'Gone Person', w.bravo, at('28T20:00:00'), 1000);
  await take(w.ben.id, 'Ben Bravo', w.bravo, TO, 7000);
  await take(w.noah.id, 'Noah Far', w.hidden, at('29T03:00:00'), 7000);
  await heard(bens, w.otherDesk.id, 1);
  await heard(gones, w.ben.id, 0);
}

async function seedAlerts(app: TestApp, w: ReportsWorld): Promise<void> {
  const alert = async (
    channelId: number | null,
    created: string,
    acknowledgedAfterS: number | null,
    closedAfterS: number | null,
    outcome: 'real' | 'false' | null,
    reason: 'sos' | 'man_down' | 'lone_worker' = 'sos',
  ) => {
    const after = (seconds: number | null) =>
      seconds === null ? null : new Date(Date.parse(created) + seconds * 1000).toISOString();
    await app.services.db
      .insertInto('emergency_alerts')
      .values({
        user_id: w.mia.id,
        user_display_name: 'Mia Field',
        channel_id: channelId,
        channel_name: channelId === null ? null : 'a channel',
        lat: null,
        lng: null,
        accuracy: null,
        created_at: created,
        acknowledged_by: acknowledgedAfterS === null ? null : w.desk.id,
        acknowledged_by_name: acknowledgedAfterS === null ? null : 'Dana Desk',
        acknowledged_at: after(acknowledgedAfterS),
        closed_at: after(closedAfterS),
        closed_by: closedAfterS === null ? null : w.desk.id,
        closed_by_name: closedAfterS === null ? null : 'Dana Desk',
        outcome,
        reason,
      })
      .execute();
  };
  await alert(w.alpha, at('28T13:00:00'), 10, 60, 'real');
  await alert(w.alpha, at('28T14:00:00'), 30, 120, 'false');
  await alert(w.alpha, at('28T15:00:00'), 20, null, null);
  // Issue 60: the reports count why they were raised.
  await alert(w.bravo, at('28T16:00:00'), null, null, null, 'lone_worker');
  await alert(null, at('28T17:00:00'), 40, 300, 'false', 'man_down');
  await alert(w.alpha, TO, 1, 2, 'real');
  await alert(w.hidden, at('28T18:00:00'), 1, 2, 'real');
}

/**
 * The queue's steps as dispatch/queue.ts writes them. r1 taken, sent back, taken again, closed; r2 taken and
 * closed; r3 expired; r4 cancelled; r5 abandoned; r6 first taken before the period, taken again and closed in
 * it; r7 (bravo) taken, transferred (a take of its own, Olly's), closed by Olly; r8 at the period's end. Closes
 * name their outcome (issue 58), but r7's (written before outcomes).
 */
async function seedQueue(app: TestApp, w: ReportsWorld): Promise<void> {
  const { db } = app.services;
  const request = async (channelId: number, created: string) =>
    (
      await db
        .insertInto('dispatch_requests')
        .values({
          channel_id: channelId,
          channel_name: channelId === w.alpha ? 'alpha' : 'bravo',
          requester_id: channelId === w.alpha ? w.mia.id : w.ben.id,
          requester_name: 'someone',
          priority: 'normal',
          note: '',
          state: 'closed',
          created_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const step = async (
    type: string,
    requestId: number,
    channelId: number,
    when: string,
    times: { waited?: number; handled?: number; outcome?: string; byOther?: boolean } = {},
  ) =>
    db
      .insertInto('activities')
      .values({
        type,
        user_id: times.byOther ? w.otherDesk.id : w.desk.id,
        user_first_name: times.byOther ? 'Olly' : 'Dana',
        user_last_name: times.byOther ? 'Other' : 'Desk',
        user_display_name: times.byOther ? 'Olly Other' : 'Dana Desk',
        channel_id: channelId,
        channel_name: channelId === w.alpha ? 'alpha' : 'bravo',
        created_at: when,
        waited_ms: times.waited ?? 0,
        handled_ms: times.handled ?? null,
        detail: JSON.stringify({
          dispatch: {
            requestId,
            requester: 'someone',
            priority: 'normal',
            ...(times.outcome ? { outcome: times.outcome } : {}),
          },
        }),
      })
      .execute();
  const a = w.alpha;
  const r1 = await request(a, at('28T12:10:00'));
  await step('dispatch_request', r1, a, at('28T12:10:00'));
  await step('dispatch_take', r1, a, at('28T12:11:00'), { waited: 60_000, handled: 0 });
  await step('dispatch_return', r1, a, at('28T12:15:00'), { waited: 60_000, handled: 240_000 });
  await step('dispatch_take', r1, a, at('28T12:20:00'), { waited: 90_000, handled: 540_000 });
  await step('dispatch_close', r1, a, at('28T12:30:00'), { waited: 90_000, handled: 1_140_000, outcome: 'resolved' });
  const r2 = await request(a, at('28T13:00:00'));
  await step('dispatch_request', r2, a, at('28T13:00:00'));
  await step('dispatch_take', r2, a, at('28T13:00:30'), { waited: 30_000, handled: 0 });
  await step('dispatch_close', r2, a, at('28T13:05:30'), { waited: 30_000, handled: 300_000, outcome: 'no_action' });
  const r3 = await request(a, at('28T14:00:00'));
  await step('dispatch_request', r3, a, at('28T14:00:00'));
  await step('dispatch_expire', r3, a, at('28T14:10:00'), { waited: 600_000 });
  const r4 = await request(a, at('28T14:30:00'));
  await step('dispatch_request', r4, a, at('28T14:30:00'));
  await step('dispatch_cancel', r4, a, at('28T14:31:00'), { waited: 60_000 });
  const r5 = await request(a, at('28T15:00:00'));
  await step('dispatch_request', r5, a, at('28T15:00:00'));
  await step('dispatch_abandon', r5, a, at('28T15:02:00'), { waited: 120_000 });
  const r6 = await request(a, at('28T11:50:00'));
  await step('dispatch_request', r6, a, at('28T11:50:00'));
  await step('dispatch_take', r6, a, at('28T11:55:00'), { waited: 300_000, handled: 0 });
  await step('dispatch_return', r6, a, at('28T11:58:00'), { waited: 300_000, handled: 180_000 });
  await step('dispatch_take', r6, a, at('28T12:05:00'), { waited: 400_000, handled: 600_000 });
  await step('dispatch_close', r6, a, at('28T12:40:00'), { waited: 400_000, handled: 2_700_000, outcome: 'referred' });
  const b = w.bravo;
  const r7 = await request(b, at('28T16:00:00'));
  await step('dispatch_request', r7, b, at('28T16:00:00'));
  await step('dispatch_take', r7, b, at('28T16:02:00'), { waited: 120_000, handled: 0 });
  await step('dispatch_transfer', r7, b, at('28T16:04:00'), { waited: 120_000, handled: 120_000 });
  // Accepted and closed by Olly; closed before outcomes existed (none).
  await step('dispatch_take', r7, b, at('28T16:05:00'), { waited: 120_000, handled: 180_000, byOther: true });
  await step('dispatch_close', r7, b, at('28T16:10:00'), { waited: 120_000, handled: 480_000, byOther: true });
  const r8 = await request(b, TO);
  await step('dispatch_request', r8, b, TO);
}

/** The most people connected per minute: a tie on the 28th (the first reach kept), a Paris day that starts at 23:00 UTC. */
async function seedPresence(app: TestApp): Promise<void> {
  const sample = (minute: string, connected: number, peakAfterS: number) =>
    app.services.db
      .insertInto('presence_samples')
      .values({ minute, connected, peak_at: new Date(Date.parse(minute) + peakAfterS * 1000).toISOString() })
      .execute();
  await sample(at('28T13:00:00'), 3, 20);
  await sample(at('28T15:00:00'), 5, 10);
  await sample(at('28T16:00:00'), 5, 5);
  await sample(at('28T23:30:00'), 7, 30);
  await sample(at('29T01:30:00'), 4, 15);
  await sample(TO, 50, 1);
  await sample(at('28T11:59:00'), 60, 1);
}
