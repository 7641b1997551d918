/**
 * SIP gateways on the server (issue 51): an administrator adds, changes and deletes gateways (audited, never
 * with their secret), the secret is answered once and kept only as its digest hashes, each gateway talks as an
 * account of its own that cannot sign in and that no list of people shows, and the calls the SIP server writes
 * are listed and hung up through the store it polls.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/passwords.ts';
import type { DomainEvents } from '../src/events.ts';
import { addressAllowed } from '../src/gateways/addresses.ts';
import { auditRefusedCall } from '../src/gateways/routes.ts';
import { gatewayWorld } from './gateway-world.ts';
import { createMember, databases } from './harness.ts';
import { createWithRole } from './role-fixtures.ts';

const GATEWAY_CALLS = [
  '/user/api/listGateways',
  '/user/api/createGateway',
  '/user/api/updateGateway',
  '/user/api/resetGatewaySecret',
  '/user/api/deleteGateway',
  '/user/api/listGatewayCalls',
];

const ha1 = (algorithm: 'md5' | 'sha256', login: string, secret: string) =>
  createHash(algorithm).update(`${login}:talkgroup:${secret}`).digest('hex');

describe.each(databases)('SIP gateways on %s', (dialect) => {
  const w = gatewayWorld(dialect);
  const accountOf = async (id: number) =>
    w.app.services.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', (await w.gatewayRow(id)).user_id)
      .executeTakeFirstOrThrow();
  const auditRows = async () =>
    (await w.app.call('/user/api/getAuditLog', { start: 0, limit: 100 }, w.admin.token)).body.res.entries as Array<{
      action: string;
      targetType: string;
      targetId: number | null;
      targetName: string | null;
      actor: { id: number | null; name: string };
      changes: Record<string, { before: unknown; after: unknown }> | null;
      address: string | null;
    }>;
  const events = <E extends keyof DomainEvents>(name: E) => {
    const heard: Array<DomainEvents[E]> = [];
    w.app.services.events.on(name, (event) => heard.push(event));
    return heard;
  };

  it('adds a gateway and its account, answers the secret once and keeps only its digest hashes', async () => {
    const created = await w.create();
    expect(created.status).toBe(200);
    const { res: gateway, secret } = created.body;
    expect(secret).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(gateway).toEqual({
      id: expect.any(Number),
      name: 'Radio Quai',
      login: 'radio-quai',
      channelIds: [w.alpha],
      allowedAddresses: [],
      floorMode: 'voice',
      attackMs: 400,
      hangMs: 1500,
      priority: 'member',
      quietBetween: true,
      simultaneousCalls: null,
      createdAt: expect.any(String),
      calls: 0,
    });
    const row = await w.gatewayRow(gateway.id);
    expect(row.realm).toBe('talkgroup');
    expect(row.ha1_md5).toBe(ha1('md5', 'radio-quai', secret));
    expect(row.ha1_sha256).toBe(ha1('sha256', 'radio-quai', secret));
    const account = await accountOf(gateway.id);
    expect(account).toMatchObject({ gateway: 1, role: 'member', display_name: 'Radio Quai', disabled_at: null });
    const memberships = await w.app.services.db
      .selectFrom('channel_members')
      .select('channel_id')
      .where('user_id', '=', account.id)
      .execute();
    expect(memberships).toEqual([]);

    const listed = await w.app.call('/user/api/listGateways', {}, w.admin.token);
    expect(listed.body.res).toEqual([gateway]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const reset = await w.app.call('/user/api/resetGatewaySecret', { id: gateway.id }, w.admin.token);
    expect(reset.status).toBe(200);
    expect(reset.body.secret).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(reset.body.secret).not.toBe(secret);
    const renewed = await w.gatewayRow(gateway.id);
    expect(renewed.ha1_md5).toBe(ha1('md5', 'radio-quai', reset.body.secret));
    expect(renewed.ha1_sha256).toBe(ha1('sha256', 'radio-quai', reset.body.secret));

    // Neither secret is in the gateway's row, its account or the audit log.
    const stored = JSON.stringify([renewed, await accountOf(gateway.id), await auditRows()]);
    for (const shown of [secret, reset.body.secret]) expect(stored).not.toContain(shown);

    const audited = await auditRows();
    expect(audited.find((entry) => entry.action === 'gateway.create')).toMatchObject({
      targetType: 'gateway',
      targetId: gateway.id,
      targetName: 'Radio Quai',
      actor: { id: w.admin.id },
    });
    expect(audited.find((entry) => entry.action === 'gateway.secret')).toMatchObject({
      targetType: 'gateway',
      targetId: gateway.id,
      changes: { secretChanged: { before: null, after: true } },
    });
  });

  it('changes a gateway: its account follows its name, its channels are replaced; audited before and after', async () => {
    const gateway = (await w.create()).body.res;
    const heard = events('gatewaysChanged');
    const updated = await w.app.call(
      '/user/api/updateGateway',
      {
        id: gateway.id,
        name: 'Radio Port',
        channelIds: [w.bravo],
        floorMode: 'dtmf',
        allowedAddresses: ['192.0.2.0/24'],
        simultaneousCalls: 4,
      },
      w.admin.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.res).toMatchObject({
      name: 'Radio Port',
      login: 'radio-quai',
      channelIds: [w.bravo],
      floorMode: 'dtmf',
      allowedAddresses: ['192.0.2.0/24'],
      simultaneousCalls: 4,
    });
    expect((await accountOf(gateway.id)).display_name).toBe('Radio Port');
    expect(heard).toEqual([{ gatewayId: gateway.id }]);
    const entry = (await auditRows()).find((row) => row.action === 'gateway.update');
    expect(entry?.changes).toEqual({
      name: { before: 'Radio Quai', after: 'Radio Port' },
      channels: { before: [w.alpha], after: [w.bravo] },
      floorMode: { before: 'voice', after: 'dtmf' },
      allowedAddresses: { before: [], after: ['192.0.2.0/24'] },
      simultaneousCalls: { before: null, after: 4 },
    });

    // The hashes name the login: a new login voids the secret until a new one is made.
    const before = await w.gatewayRow(gateway.id);
    await w.app.call('/user/api/updateGateway', { id: gateway.id, login: 'radio-port' }, w.admin.token);
    const after = await w.gatewayRow(gateway.id);
    expect(after.login).toBe('radio-port');
    expect(after.ha1_md5).not.toBe(before.ha1_md5);
    const reset = await w.app.call('/user/api/resetGatewaySecret', { id: gateway.id }, w.admin.token);
    expect((await w.gatewayRow(gateway.id)).ha1_md5).toBe(ha1('md5', 'radio-port', reset.body.secret));
  });

  it('deletes a gateway: its account stays, disabled, and its login is free again', async () => {
    const gateway = (await w.create()).body.res;
    const accountId = (await w.gatewayRow(gateway.id)).user_id;
    const deleted = await w.app.call('/user/api/deleteGateway', { id: gateway.id }, w.admin.token);
    expect(deleted.status).toBe(200);
    expect((await w.app.call('/user/api/listGateways', {}, w.admin.token)).body.res).toEqual([]);
    const account = await w.app.services.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ display_name: 'Radio Quai', gateway: 1, disabled_at: expect.any(String) });
    expect((await auditRows()).find((entry) => entry.action === 'gateway.delete')).toMatchObject({
      targetId: gateway.id,
      targetName: 'Radio Quai',
    });
    expect((await w.create()).status).toBe(200);
    expect((await w.app.call('/user/api/deleteGateway', { id: gateway.id }, w.admin.token)).status).toBe(404);
  });

  it('refuses a bad body with 400 naming the field, and a login taken with 409', async () => {
    const refused = async (body: object, words: string[]) => {
      const answer = await w.create(body);
      expect(answer.status).toBe(400);
      for (const word of words) expect(answer.body.result).toContain(word);
    };
    await refused({ login: 'a b' }, ['login']);
    await refused({ name: '  ' }, ['name']);
    await refused({ attackMs: 5 }, ['attackMs']);
    await refused({ floorMode: 'shout' }, ['floorMode']);
    await refused({ allowedAddresses: ['300.1.2.3'] }, ['allowedAddresses', '300.1.2.3']);
    await refused({ allowedAddresses: ['192.0.2.1', '10.0.0.0/33'] }, ['allowedAddresses', '10.0.0.0/33']);
    await refused({ channelIds: [w.alpha, 9999] }, ['channelIds', '9999']);
    await refused({ simultaneousCalls: 0 }, ['simultaneousCalls', 'at least 1']);
    await refused({ simultaneousCalls: 1001 }, ['simultaneousCalls', 'at most 1000']);
    await refused({ simultaneousCalls: 2.5 }, ['simultaneousCalls', 'expected int']);
    await refused({ simultaneousCalls: '3' }, ['simultaneousCalls']);
    expect((await w.app.call('/user/api/listGateways', {}, w.admin.token)).body.res).toEqual([]);

    const first = await w.create({ allowedAddresses: ['192.0.2.0/24', '2001:db8::/32', '198.51.100.7'] });
    expect(first.status).toBe(200);
    const taken = await w.app.fastify.inject({
      method: 'POST',
      url: '/user/api/createGateway',
      payload: { name: 'Autre radio', login: 'radio-quai' },
      headers: { 'x-access-token': w.admin.token, 'accept-language': 'fr' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'gateway_login_taken',
      result: 'Une autre passerelle utilise déjà l’identifiant radio-quai : choisissez-en un autre.',
    });
    const other = (await w.create({ name: 'Radio Port', login: 'radio-port' })).body.res;
    const renamed = await w.app.call('/user/api/updateGateway', { id: other.id, login: 'radio-quai' }, w.admin.token);
    expect(renamed.status).toBe(409);
    expect((await w.app.call('/user/api/updateGateway', { id: 9999, name: 'x' }, w.admin.token)).status).toBe(404);
    expect((await w.app.call('/user/api/resetGatewaySecret', { id: 9999 }, w.admin.token)).status).toBe(404);

    // What the SIP server asks of the saved list.
    const allowed = first.body.res.allowedAddresses;
    expect(addressAllowed(allowed, '192.0.2.200')).toBe(true);
    expect(addressAllowed(allowed, '::ffff:192.0.2.9')).toBe(true);
    expect(addressAllowed(allowed, '2001:db8::5')).toBe(true);
    expect(addressAllowed(allowed, '198.51.100.8')).toBe(false);
    expect(addressAllowed([], '203.0.113.1')).toBe(true);
  });

  // hangUpGatewayCall is a dispatcher's in its channels too (issue 58): gateway-hang-up.test.ts.
  it('answers 403 to a dispatcher and a member on every gateways call but the hang-up', async () => {
    const gateway = (await w.create()).body.res;
    const desk = await createWithRole(w.app, w.admin, 'dispatcher');
    const mia = await createMember(w.app, w.admin);
    await w.app.services.memberships.add(w.alpha, [desk.id, mia.id]);
    const body = { id: gateway.id, name: 'Radio', login: 'radio-other', callId: 'x', channelId: w.alpha };
    for (const account of [desk, mia])
      for (const path of GATEWAY_CALLS) {
        const answer = await w.app.call(path, body, account.token);
        expect([path, answer.status, answer.body.code]).toEqual([path, 403, 'admin_only']);
      }
    expect((await w.app.call('/user/api/listGateways', {}, w.admin.token)).body.res).toEqual([gateway]);
  });

  it('lists the calls, flags a hang-up for the instance that holds it, and tells it what to end', async () => {
    const gateway = (await w.create({ channelIds: [w.alpha, w.bravo] })).body.res;
    const sip = w.app.services.gateways;
    const account = await sip.byLogin('radio-quai');
    expect(account).toMatchObject({ id: gateway.id, channelIds: [w.alpha, w.bravo], realm: 'talkgroup' });
    const userId = account?.userId ?? 0;
    const call = { gatewayId: gateway.id, userId, address: '127.0.0.1:5062', transport: 'udp', codec: 'PCMU' } as const;
    await sip.openCall({ ...call, callId: 'one@host', channelId: w.alpha, instanceId: 'A' });
    await sip.openCall({ ...call, callId: 'two@host', channelId: w.bravo, instanceId: 'A' });
    await sip.openCall({ ...call, callId: 'three@host', channelId: w.alpha, instanceId: 'B', transport: 'tcp' });
    await sip.setTalking('one@host', true);
    expect(await sip.toEnd('A')).toEqual([]);

    const inAlpha = await w.app.call('/user/api/listGatewayCalls', { channelId: w.alpha }, w.admin.token);
    expect(inAlpha.body.res).toEqual([
      expect.objectContaining({ callId: 'one@host', gatewayName: 'Radio Quai', channelName: 'alpha', talking: true }),
      expect.objectContaining({ callId: 'three@host', transport: 'tcp', talking: false }),
    ]);
    expect((await w.app.call('/user/api/listGatewayCalls', {}, w.admin.token)).body.res).toHaveLength(3);
    expect((await w.app.call('/user/api/listGateways', {}, w.admin.token)).body.res[0].calls).toBe(3);

    const heard = events('gatewaysChanged');
    const hungUp = await w.app.call('/user/api/hangUpGatewayCall', { callId: 'one@host' }, w.admin.token);
    expect(hungUp.status).toBe(200);
    expect(heard).toEqual([{ gatewayId: gateway.id, callId: 'one@host' }]);
    expect(await sip.toEnd('A')).toEqual(['one@host']);
    expect(await sip.toEnd('B')).toEqual([]);
    expect((await auditRows()).find((entry) => entry.action === 'gateway.hangUp')).toMatchObject({
      targetType: 'gateway',
      targetId: gateway.id,
      targetName: 'Radio Quai',
      changes: { callId: { before: null, after: 'one@host' } },
    });
    expect((await w.app.call('/user/api/hangUpGatewayCall', { callId: 'none@host' }, w.admin.token)).status).toBe(404);

    // A channel the gateway may no longer enter ends its calls there.
    await w.app.call('/user/api/updateGateway', { id: gateway.id, channelIds: [w.alpha] }, w.admin.token);
    expect((await sip.toEnd('A')).sort()).toEqual(['one@host', 'two@host']);
    await sip.closeCall('one@host');
    await sip.closeCall('two@host');

    // A deleted gateway's calls go with it: the instance learns it of the calls it holds.
    await w.app.call('/user/api/deleteGateway', { id: gateway.id }, w.admin.token);
    expect(await sip.byId(gateway.id)).toBeUndefined();
    expect(await sip.toEnd('B', ['three@host'])).toEqual(['three@host']);

    const again = (await w.create({ login: 'radio-two' })).body.res;
    await sip.openCall({ ...call, gatewayId: again.id, callId: 'four@host', channelId: w.alpha, instanceId: 'B' });
    await sip.clearInstance('B');
    expect(await sip.calls()).toEqual([]);
  });

  it('leaves the gateway’s account out of the users lists, the export and the counts; it never signs in', async () => {
    const mia = await createMember(w.app, w.admin, { firstName: 'Mia', lastName: 'Field' });
    const counted = (await w.app.call('/user/api/getStatistics', {}, w.admin.token)).body.res.totalUsers;
    const gateway = (await w.create()).body.res;
    const accountId = (await w.gatewayRow(gateway.id)).user_id;
    const people = [w.admin.id, mia.id].sort();

    const all = (await w.app.call('/user/api/getAllUsers', {}, w.admin.token)).body.res as Array<{ id: number }>;
    expect(all.map((user) => user.id).sort()).toEqual(people);
    const page = (await w.app.call('/user/api/getUsersPage', {}, w.admin.token)).body.res;
    expect(page.totalRecords).toBe(2);
    expect(page.users.map((user: { id: number }) => user.id).sort()).toEqual(people);
    const searched = await w.app.call('/user/api/getUsersPage', { search: 'radio' }, w.admin.token);
    expect(searched.body.res).toEqual({ users: [], totalRecords: 0 });
    expect(((await w.app.call('/user/api/getUserIds', {}, w.admin.token)).body.res as number[]).sort()).toEqual(people);
    const exported = (await w.app.call('/user/api/getListUsersToExport/', {}, w.admin.token)).body.res;
    expect(exported.map((row: { identifier: string }) => row.identifier).sort()).toEqual(
      [w.admin.identifier, mia.identifier].sort(),
    );
    expect((await w.app.call('/user/api/getStatistics', {}, w.admin.token)).body.res.totalUsers).toBe(counted);
    expect(all.some((user) => user.id === accountId)).toBe(false);

    // No password opens it: not the stored marker, and not one an administrator might have set.
    const identifier = (await accountOf(gateway.id)).identifier;
    for (const password of ['', 'radio-quai', identifier]) {
      const login = await w.app.call('/user/api/login', { user_email: identifier, user_password: password || 'x' });
      expect([login.status, login.body.code]).toEqual([401, 'invalid_credentials']);
    }
    await w.app.services.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('known-password'), identifier: 'radio@example.org' })
      .where('id', '=', accountId)
      .execute();
    const login = await w.app.call('/user/api/login', {
      user_email: 'radio@example.org',
      user_password: 'known-password',
    });
    expect([login.status, login.body.code]).toEqual([401, 'invalid_credentials']);
  });

  it('audits a call the SIP server refused as the SIP actor, naming the login and the number dialled', async () => {
    const gateway = (await w.create()).body.res;
    await auditRefusedCall(w.app.services, {
      login: 'radio-x',
      number: '1999',
      address: '203.0.113.5:5060',
      reason: 'credentials',
    });
    await auditRefusedCall(w.app.services, {
      login: 'radio-quai',
      gatewayId: gateway.id,
      gatewayName: 'Radio Quai',
      number: String(1000 + w.bravo),
      address: '127.0.0.1:5062',
      reason: 'channel',
    });
    const refused = (await auditRows()).filter((entry) => entry.action === 'gateway.refused');
    expect(refused).toEqual([
      expect.objectContaining({
        actor: { id: null, name: 'SIP' },
        targetType: 'gateway',
        targetId: gateway.id,
        targetName: 'Radio Quai',
        address: '127.0.0.1:5062',
        changes: {
          number: { before: null, after: String(1000 + w.bravo) },
          reason: { before: null, after: 'channel' },
          login: { before: null, after: 'radio-quai' },
        },
      }),
      expect.objectContaining({
        actor: { id: null, name: 'SIP' },
        targetId: null,
        targetName: 'radio-x',
        changes: expect.objectContaining({ number: { before: null, after: '1999' } }),
      }),
    ]);
  });
});
