/**
 * Issue 58: a dispatcher hangs up a gateway's call in the channels it dispatches, as an administrator does
 * anywhere; a member never; another channel's dispatcher gets 403, and nothing is flagged for the SIP server.
 */
import { describe, expect, it } from 'vitest';
import { gatewayWorld } from './gateway-world.ts';
import { createMember, databases } from './harness.ts';
import { createWithRole } from './role-fixtures.ts';

describe.each(databases)('hanging up a gateway’s call on %s', (dialect) => {
  const w = gatewayWorld(dialect);

  it('lets a dispatcher of the call’s channel hang it up, and no one else but an administrator', async () => {
    const gateway = (await w.create({ channelIds: [w.alpha, w.bravo] })).body.res;
    const sip = w.app.services.gateways;
    const userId = (await sip.byId(gateway.id))?.userId ?? 0;
    const call = { gatewayId: gateway.id, userId, address: '127.0.0.1:5062', transport: 'udp', codec: 'PCMU' } as const;
    await sip.openCall({ ...call, callId: 'alpha@host', channelId: w.alpha, instanceId: 'A' });
    await sip.openCall({ ...call, callId: 'bravo@host', channelId: w.bravo, instanceId: 'A' });
    const desk = await createWithRole(w.app, w.admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
    const otherDesk = await createWithRole(w.app, w.admin, 'dispatcher');
    const mia = await createMember(w.app, w.admin);
    await w.app.services.memberships.add(w.alpha, [desk.id, mia.id]);
    await w.app.services.memberships.add(w.bravo, [otherDesk.id]);
    const hangUp = async (callId: string, token: string) => {
      const answer = await w.app.call('/user/api/hangUpGatewayCall', { callId }, token);
      return [answer.status, answer.body.code];
    };

    // A member of the channel, and a dispatcher of another one: refused, the call not flagged.
    expect(await hangUp('alpha@host', mia.token)).toEqual([403, 'not_allowed']);
    expect(await hangUp('alpha@host', otherDesk.token)).toEqual([403, 'not_channel_member']);
    expect(await hangUp('bravo@host', desk.token)).toEqual([403, 'not_channel_member']);
    expect(await sip.toEnd('A')).toEqual([]);

    // The channel's dispatcher: the call is flagged for the instance that holds it, and audited as theirs.
    expect(await hangUp('alpha@host', desk.token)).toEqual([200, 'gateway_hung_up']);
    expect(await sip.toEnd('A')).toEqual(['alpha@host']);
    const audit = (await w.app.call('/user/api/getAuditLog', { start: 0, limit: 100 }, w.admin.token)).body.res
      .entries as Array<{ action: string; targetId: number | null; actor: { id: number | null } }>;
    expect(audit.find((entry) => entry.action === 'gateway.hangUp')).toMatchObject({
      targetId: gateway.id,
      actor: { id: desk.id },
    });
    // Over already: 404 for whoever may hang up there.
    await sip.closeCall('alpha@host');
    expect(await hangUp('alpha@host', desk.token)).toEqual([404, 'gateway_call_not_found']);

    // The administrator, in any channel.
    expect(await hangUp('bravo@host', w.admin.token)).toEqual([200, 'gateway_hung_up']);
    expect(await sip.toEnd('A')).toEqual(['bravo@host']);
  });
});
