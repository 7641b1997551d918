/**
 * A worker's server is shared by its tests: an SOS alert left open, or taken and not closed, shows its banner
 * over every later console page of that worker (fixed at the top, it covers a phone's menu button). A test that
 * raises alerts closes them all before it ends.
 */
import type { Account, TalkgroupServer } from './fixtures.ts';

export async function closeAllAlerts(server: TalkgroupServer, admin: Account): Promise<void> {
  for (;;) {
    const listed = await server.call('/user/api/getEmergencyAlerts', { start: 0, limit: 50 }, admin.token);
    const left = (listed.body.res.alerts as Array<{ id: number; closedAt: string | null }>).filter(
      (alert) => !alert.closedAt,
    );
    if (left.length === 0) return;
    for (const alert of left) {
      const closed = await server.call(
        '/user/api/closeEmergencyAlert',
        { alertId: alert.id, outcome: 'false' },
        admin.token,
      );
      if (closed.status !== 200 && closed.status !== 409)
        throw new Error(`closeEmergencyAlert ${alert.id}: ${closed.status} ${JSON.stringify(closed.body)}`);
    }
  }
}
