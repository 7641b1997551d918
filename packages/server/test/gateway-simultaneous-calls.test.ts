/**
 * A gateway's simultaneous calls (issue 57): set on creation or change (1 to 1000, null for the default), listed,
 * audited when changed, and read by the SIP server as maxCalls (one call per channel it may enter by default),
 * past which it answers 486 Busy Here. The field's 400s are gateways.test.ts's, with the other fields'.
 */
import { describe, expect, it } from 'vitest';
import { maxCalls } from '../src/gateways/store.ts';
import { gatewayWorld } from './gateway-world.ts';
import { databases } from './harness.ts';

describe.each(databases)('a gateway’s simultaneous calls on %s', (dialect) => {
  const w = gatewayWorld(dialect);
  const auditRows = async () =>
    (await w.app.call('/user/api/getAuditLog', { start: 0, limit: 100 }, w.admin.token)).body.res.entries as Array<{
      action: string;
      changes: Record<string, { before: unknown; after: unknown }> | null;
    }>;

  it('keeps a gateway’s simultaneous calls, or null for one call per channel it may enter (maxCalls)', async () => {
    const sip = w.app.services.gateways;
    const gateway = (await w.create({ channelIds: [w.alpha, w.bravo] })).body.res;
    expect(gateway.simultaneousCalls).toBeNull();
    const byDefault = await sip.byLogin('radio-quai');
    expect(byDefault?.simultaneousCalls).toBeNull();
    expect(maxCalls(byDefault as NonNullable<typeof byDefault>)).toBe(2);

    const raised = await w.create({ name: 'Standard', login: 'desk-phone', channelIds: [], simultaneousCalls: 20 });
    expect(raised.status).toBe(200);
    expect(raised.body.res.simultaneousCalls).toBe(20);
    const listed = (await w.app.call('/user/api/listGateways', {}, w.admin.token)).body.res as Array<{
      login: string;
      simultaneousCalls: number | null;
    }>;
    expect(listed.map((row) => [row.login, row.simultaneousCalls])).toEqual([
      ['radio-quai', null],
      ['desk-phone', 20],
    ]);
    expect(maxCalls((await sip.byLogin('desk-phone')) as NonNullable<typeof byDefault>)).toBe(20);

    // Back to the default, audited as a change to null; a gateway with no channel still holds one call.
    const reset = await w.app.call(
      '/user/api/updateGateway',
      { id: raised.body.res.id, simultaneousCalls: null },
      w.admin.token,
    );
    expect(reset.body.res.simultaneousCalls).toBeNull();
    expect((await w.gatewayRow(raised.body.res.id)).simultaneous_calls).toBeNull();
    expect(maxCalls((await sip.byLogin('desk-phone')) as NonNullable<typeof byDefault>)).toBe(1);
    const entry = (await auditRows()).find((row) => row.action === 'gateway.update');
    expect(entry?.changes).toEqual({ simultaneousCalls: { before: 20, after: null } });

    // Left out of a change, it stays.
    await w.app.call('/user/api/updateGateway', { id: gateway.id, simultaneousCalls: 3 }, w.admin.token);
    const renamed = await w.app.call('/user/api/updateGateway', { id: gateway.id, name: 'Radio Port' }, w.admin.token);
    expect(renamed.body.res.simultaneousCalls).toBe(3);
    expect(maxCalls({ simultaneousCalls: null, channelIds: [1, 2, 3] })).toBe(3);
  });
});
