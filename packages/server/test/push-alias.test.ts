/**
 * A call to a functional alias (issue 59) rings every holder's phone through Web Push, not only the first's: each
 * gets the ringing call with a decline key of its own. A holder's decline from its notification leaves the others
 * ringing, as a decline on its page does; when one holder answers, the others' notifications (same tag) say who
 * took it; when nobody does, each holder's says the call was missed.
 */
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../src/db/open.ts';
import { databases } from './harness.ts';
import { decrypt } from './push-harness.ts';
import { pushRequests, pushWorld } from './push-world.ts';

describe.each(databases)('Web Push of a call to an alias on %s', (dialect: Dialect) => {
  const world = pushWorld(dialect);
  const { subscribe } = pushRequests(world);

  /** "Chef de quart", held by Alice then Bob, both subscribed in French; the administrator calls it. */
  async function callTheAlias() {
    const { app, admin, alice, bob, service } = world;
    const created = await app.call(
      '/user/api/createAlias',
      { name: 'Chef de quart', maxHolders: 2, takeRoles: ['member'] },
      admin.token,
    );
    expect(created.status).toBe(200);
    const aliasId = created.body.res.id;
    for (const holder of [alice, bob])
      expect((await app.call('/user/api/takeAlias', { aliasId }, holder.token)).status).toBe(200);
    const devices = { alice: await subscribe(alice, 'fr'), bob: await subscribe(bob, 'fr') };
    const started = await app.call('/user/api/startPrivateCall', { aliasId }, admin.token);
    expect(started.status).toBe(200);
    const callId = started.body.res.callId as number;
    const rings = {
      alice: decrypt(devices.alice, await service.next(devices.alice.path)),
      bob: decrypt(devices.bob, await service.next(devices.bob.path)),
    };
    return { callId, devices, rings };
  }

  const decline = (callId: number, key: string) =>
    world.app.fastify.inject({ method: 'POST', url: '/user/api/declinePushedCall', payload: { callId, key } });
  const stateOf = async (callId: number) =>
    (await world.app.call('/user/api/getPrivateCalls', {}, world.admin.token)).body.res.find(
      (call: { callId: number }) => call.callId === callId,
    )?.state;

  it('rings each holder with a key of its own; one holder declining leaves the other ringing', async () => {
    const { callId, rings } = await callTheAlias();
    for (const ring of [rings.alice, rings.bob])
      expect(ring).toMatchObject({ kind: 'call', callId, tag: `call-${callId}`, title: 'Ada Admin vous appelle' });
    expect(rings.alice.declineKey).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));
    expect(rings.bob.declineKey).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));
    expect(rings.alice.declineKey).not.toBe(rings.bob.declineKey);

    // Bob declines from his notification: Alice still rings, and Bob's key opens nothing any more (he no longer
    // rings: his key answers as a wrong one does).
    expect((await decline(callId, rings.bob.declineKey)).statusCode).toBe(200);
    expect(await stateOf(callId)).toBe('ringing');
    expect((await decline(callId, rings.bob.declineKey)).statusCode).toBe(403);
    expect(await stateOf(callId)).toBe('ringing');
    // Alice, the last holder ringing, declines: the call is declined.
    expect((await decline(callId, rings.alice.declineKey)).statusCode).toBe(200);
    expect(await stateOf(callId)).toBe('declined');
  });

  it('tells the other holders who answered, and every holder a call nobody answered', async () => {
    const { app, admin, bob, service } = world;
    const first = await callTheAlias();
    expect(
      (await app.call('/user/api/answerPrivateCall', { callId: first.callId, accept: true }, bob.token)).status,
    ).toBe(200);
    expect(decrypt(first.devices.alice, await service.next(first.devices.alice.path))).toEqual({
      kind: 'missed_call',
      title: 'Appel manqué',
      body: 'Bob Field a répondu à l’appel pour Chef de quart.',
      url: '/talk',
      tag: `call-${first.callId}`,
      callId: first.callId,
    });
    expect((await app.call('/user/api/endPrivateCall', { callId: first.callId }, admin.token)).status).toBe(200);

    // A second call, given up by the caller while both ring: both notifications become a missed call.
    const started = await app.call(
      '/user/api/startPrivateCall',
      { aliasId: await aliasIdOf('Chef de quart') },
      admin.token,
    );
    const callId = started.body.res.callId as number;
    const devices = first.devices;
    for (const device of [devices.alice, devices.bob])
      expect(decrypt(device, await service.next(device.path))).toMatchObject({ kind: 'call', callId });
    expect((await app.call('/user/api/endPrivateCall', { callId }, admin.token)).status).toBe(200);
    for (const device of [devices.alice, devices.bob])
      expect(decrypt(device, await service.next(device.path))).toMatchObject({
        kind: 'missed_call',
        body: 'Ada Admin vous a appelé.',
        tag: `call-${callId}`,
      });
  });

  async function aliasIdOf(name: string): Promise<number> {
    const aliases = (await world.app.call('/user/api/getAliases', {}, world.admin.token)).body.res;
    return aliases.find((alias: { name: string }) => alias.name === name).id;
  }
});
