/**
 * Issue 69 and ambient listening: the caller's rights before anything about the member (no oracle of whose app is
 * open); down the ranks only, for listening and for device status (a dispatcher listens to members, an
 * administrator to anyone but himself); a dispatcher's listening is announced whatever the setting; a change of
 * `ambientListening` reaches the live listenings at once ('off' ends them, 'announced' announces the discreet ones)
 * and a renewal follows the setting as it is then; a listening whose audit row cannot be written does not happen.
 * Across instances (Redis): ambient-listening-cluster.test.ts.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('ambient listening down the ranks on %s', { timeout: 60_000 }, (dialect) => {
  const w = world(dialect, {
    people: {
      chief: { role: 'admin', firstName: 'Chloé', lastName: 'Chief' },
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      dora: { role: 'dispatcher', firstName: 'Dora', lastName: 'Desk' },
      otherDesk: { role: 'dispatcher', firstName: 'Otto', lastName: 'Other' },
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
      olaf: { role: 'member', firstName: 'Olaf', lastName: 'Field' },
    },
    channels: {
      field: { name: 'Field Team', members: ['mia', 'olaf', 'dana', 'dora', 'chief'] },
      depot: { name: 'Depot', members: ['otherDesk'] },
    },
  });

  const open = (account: Account, talkPage = false) => w.open(account, { talkPage });
  const start = (userId: number, who: Account) => w.app.call('/user/api/startAmbientListening', { userId }, who.token);
  const setting = async (ambientListening: 'off' | 'announced' | 'discreet') =>
    expect((await w.app.call('/user/api/setSafetySettings', { ambientListening }, w.admin.token)).status).toBe(200);
  const auditRows = async () =>
    (await w.app.services.audit.page({ start: 0, limit: 100 })).entries.filter((e) => e.action.startsWith('ambient.'));

  it("checks the caller's rights before the member's app: a member is 403 whatever the target (no oracle)", async () => {
    const { app, otherDesk, mia, olaf } = w;
    await setting('announced');
    // Mia's app is closed: a member, or another channel's dispatcher, learns nothing of it.
    for (const caller of [olaf, otherDesk]) {
      const refused = await start(mia.id, caller);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('not_allowed');
    }
    expect((await start(999_999, olaf)).status).toBe(403);
    await open(mia, true);
    for (const caller of [olaf, otherDesk]) expect((await start(mia.id, caller)).body.code).toBe('not_allowed');
    // The device calls answer the same, open or not.
    for (const call of ['getDeviceStatus', 'requestDeviceStatus'])
      expect((await app.call(`/user/api/${call}`, { userId: mia.id }, otherDesk.token)).body.code).toBe('not_allowed');
    expect(await auditRows()).toEqual([]);
  });

  it('goes down the ranks: no dispatcher listens to or reads the device of an administrator or a dispatcher', async () => {
    const { app, admin, chief, dana, dora, mia } = w;
    await setting('announced');
    for (const account of [chief, dora, mia, dana]) await open(account, true);
    for (const target of [chief, dora]) {
      const refused = await start(target.id, dana);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('role_not_below_yours');
      expect(refused.body.result).toMatch(/equal to or above yours/);
      for (const call of ['getDeviceStatus', 'requestDeviceStatus']) {
        const device = await app.call(`/user/api/${call}`, { userId: target.id }, dana.token);
        expect(device.status).toBe(403);
        expect(device.body.code).toBe('role_not_below_yours');
      }
    }
    expect(await auditRows()).toEqual([]);
    // Down the ranks: a dispatcher to a member, an administrator to a dispatcher and to another administrator.
    expect((await start(mia.id, dana)).body.res).toMatchObject({ userId: mia.id, announced: true });
    expect((await start(dana.id, admin)).status).toBe(200);
    expect((await start(chief.id, admin)).status).toBe(200);
    expect((await app.call('/user/api/getDeviceStatus', { userId: chief.id }, admin.token)).status).toBe(200);
    // Never oneself.
    expect((await start(admin.id, admin)).status).toBe(400);
    const own = await app.call('/user/api/requestDeviceStatus', { userId: admin.id }, admin.token);
    expect(own.body.code).toBe('role_not_below_yours');
  });

  it("announces a dispatcher's listening even where the setting is 'discreet'; an administrator's stays discreet", async () => {
    const { admin, dana, mia, olaf } = w;
    await setting('discreet');
    const miaPhone = await open(mia, true);
    const olafPhone = await open(olaf, true);
    const byDispatcher = await start(mia.id, dana);
    expect(byDispatcher.body.res.announced).toBe(true);
    expect(await miaPhone.next('ambient_start')).toMatchObject({ listener: { userId: dana.id }, announced: true });
    const byAdmin = await start(olaf.id, admin);
    expect(byAdmin.body.res.announced).toBe(false);
    expect(await olafPhone.next('ambient_start')).toMatchObject({ listener: { userId: admin.id }, announced: false });
    const [row] = (await auditRows()).filter((r) => r.action === 'ambient.start' && r.targetId === mia.id);
    expect(row.changes).toMatchObject({ mode: { after: 'discreet' }, announced: { after: true } });
  });

  it("follows a change of the setting at once: 'announced' announces the discreet listenings, 'off' ends them all", async () => {
    const { app, admin, dana, mia, olaf } = w;
    await setting('discreet');
    const miaPhone = await open(mia, true);
    const olafPhone = await open(olaf, true);
    const adminDesk = await open(admin);
    const danaDesk = await open(dana);
    const discreet = (await start(mia.id, admin)).body.res;
    const announced = (await start(olaf.id, dana)).body.res;
    expect(discreet.announced).toBe(false);
    await miaPhone.next('ambient_start');
    await olafPhone.next('ambient_start');

    await setting('announced');
    expect(await miaPhone.next('ambient_start')).toEqual({
      listeningId: discreet.listeningId,
      listener: { userId: admin.id, name: 'Ada Admin' },
      announced: true,
    });
    await olafPhone.flush();
    expect(olafPhone.all('ambient_start')).toHaveLength(1);

    await setting('off');
    expect(await miaPhone.next('ambient_end')).toEqual({ listeningId: discreet.listeningId, reason: 'off' });
    expect(await adminDesk.next('ambient_end')).toEqual({ listeningId: discreet.listeningId, reason: 'off' });
    expect(await olafPhone.next('ambient_end')).toEqual({ listeningId: announced.listeningId, reason: 'off' });
    expect(await danaDesk.next('ambient_end')).toEqual({ listeningId: announced.listeningId, reason: 'off' });
    // Each end audited as every end is (written once it is told: waited for).
    const ends = async () =>
      (await auditRows())
        .filter((r) => r.action === 'ambient.stop')
        .map((r) => [r.targetId, r.actor.id, r.changes?.reason?.after])
        .sort();
    await expect.poll(ends, { timeout: 15_000 }).toEqual(
      [
        [mia.id, admin.id, 'off'],
        [olaf.id, admin.id, 'off'],
      ].sort(),
    );
    expect((await auditRows()).find((r) => r.action === 'ambient.announce')).toMatchObject({
      targetId: mia.id,
      actor: { id: admin.id },
    });
    expect(
      (await app.call('/user/api/stopAmbientListening', { listeningId: discreet.listeningId }, admin.token)).status,
    ).toBe(404);
  });

  it('applies the setting as it is now to a renewal: a discreet listening renewed after it became announced is announced', async () => {
    const { app, admin, mia } = w;
    await setting('discreet');
    const miaPhone = await open(mia, true);
    const first = (await start(mia.id, admin)).body.res;
    expect(await miaPhone.next('ambient_start')).toMatchObject({ announced: false });
    // Written as another instance would (its change's sweep never reached this one).
    const safety = await app.services.settings.safety();
    await app.services.settings.setSafety({ ...safety, ambientListening: 'announced' });
    const renewed = await start(mia.id, admin);
    expect(renewed.body.res).toMatchObject({ listeningId: first.listeningId, renewed: true, announced: true });
    expect(await miaPhone.next('ambient_start')).toMatchObject({ listeningId: first.listeningId, announced: true });
    // Never hidden again: the member would think it over.
    await app.services.settings.setSafety({ ...safety, ambientListening: 'discreet' });
    expect((await start(mia.id, admin)).body.res).toMatchObject({ renewed: true, announced: true });
    const renewals = (await auditRows()).filter((r) => r.action === 'ambient.renew');
    expect(renewals.map((r) => r.changes?.announced?.after)).toEqual([true, true]);
  });

  it('does not happen when its audit row cannot be written: the start fails, the member hears nothing', async () => {
    const { app, dana, mia } = w;
    await setting('announced');
    const miaPhone = await open(mia, true);
    await sql`alter table audit_log rename to audit_log_away`.execute(app.services.db);
    const failed = await start(mia.id, dana);
    expect(failed.status).toBe(500);
    await miaPhone.flush();
    expect(miaPhone.all('ambient_start')).toEqual([]);
    await sql`alter table audit_log_away rename to audit_log`.execute(app.services.db);
    // Nothing was left live: the next start is a new listening, not a renewal.
    const started = await start(mia.id, dana);
    expect(started.body.res).toMatchObject({ renewed: false });
    await miaPhone.next('ambient_start');

    // A renewal whose row cannot be written ends the listening rather than go on unrecorded.
    await sql`alter table audit_log rename to audit_log_away`.execute(app.services.db);
    expect((await start(mia.id, dana)).status).toBe(500);
    expect(await miaPhone.next('ambient_end')).toEqual({
      listeningId: started.body.res.listeningId,
      reason: 'stopped',
    });
    await sql`alter table audit_log_away rename to audit_log`.execute(app.services.db);
    expect((await start(mia.id, dana)).body.res).toMatchObject({ renewed: false });
  });
});
