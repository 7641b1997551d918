/**
 * The call queue's reminder as a Web Push (issue 49): a request that waited DISPATCH_REMIND_SECONDS reaches the
 * administrators and its channel's dispatchers who have no dispatch console open, in their language; a dispatcher
 * whose console is open hears it there instead, and the member who asked gets nothing. A request taken by private
 * call rings its member's phone saying it answers the request (issue 58).
 */
import { describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import { decrypt, verifyVapid } from './push-harness.ts';
import { pushRequests, pushWorld } from './push-world.ts';
import { connect } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

describe.each(databases)('the dispatch reminder pushed on %s', (dialect) => {
  const world = pushWorld(dialect, {
    dispatch: { remindMs: 1000, expireMs: 600_000, transferMs: 30_000, abandonMs: 120_000 },
  });
  const { subscribe } = pushRequests(world);

  it('pushes a waiting request to the dispatchers and administrators without the console open', async () => {
    const { app, admin, alice, channel, service, clients } = world;
    const dora = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dora', lastName: 'Desk' });
    const desi = await createWithRole(app, admin, 'dispatcher', { firstName: 'Desi', lastName: 'Desk' });
    await app.services.memberships.add(channel.id, [dora.id, desi.id]);
    const doraDevice = await subscribe(dora, 'fr');
    const desiDevice = await subscribe(desi);
    const adminDevice = await subscribe(admin, 'de');
    const aliceDevice = await subscribe(alice);
    const desk = await connect(world.url, desi.token);
    clients.push(desk, await connect(world.url, alice.token));
    expect(await desk.emitAck('dispatch_console', { open: true })).toMatchObject({ success: true });

    const asked = await app.call('/user/api/requestDispatchCall', { channelId: channel.id }, alice.token);
    const requestId = asked.body.res.requestId;
    const delivery = await service.next(doraDevice.path);
    expect(decrypt(doraDevice, delivery)).toEqual({
      kind: 'dispatch',
      title: 'Alice Field attend le dispatch',
      body: 'En attente depuis 1 min sur Atelier : ouvrez la console de dispatch.',
      url: '/dispatch',
      tag: `dispatch-${requestId}`,
    });
    verifyVapid(delivery, service.origin, world.publicKey);
    expect(decrypt(adminDevice, await service.next(adminDevice.path))).toMatchObject({
      title: 'Alice Field wartet auf die Leitstelle',
    });
    await app.push.sender?.idle();
    expect(service.to(desiDevice.path)).toEqual([]);
    expect(service.to(aliceDevice.path)).toEqual([]);
  });

  it('rings the member of a request taken by private call with "Réponse à votre demande" and its note (issue 58)', async () => {
    const { app, admin, alice, channel, service } = world;
    const dora = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dora', lastName: 'Desk' });
    await app.services.memberships.add(channel.id, [dora.id]);
    const aliceDevice = await subscribe(alice, 'fr');
    const asked = await app.call(
      '/user/api/requestDispatchCall',
      { channelId: channel.id, note: 'Chariot en panne' },
      alice.token,
    );
    const requestId = asked.body.res.requestId;
    const taken = await app.call('/user/api/takeDispatchCall', { requestId, answer: 'private' }, dora.token);
    const callId = taken.body.res.callId;
    expect(decrypt(aliceDevice, await service.next(aliceDevice.path))).toEqual({
      kind: 'call',
      title: 'Dora Desk vous appelle',
      body: 'Réponse à votre demande : Chariot en panne',
      url: `/talk?call=${callId}`,
      tag: `call-${callId}`,
      callId,
      declineKey: expect.any(String),
      requestId,
    });
  });
});
