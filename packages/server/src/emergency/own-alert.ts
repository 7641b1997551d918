/**
 * Issue 70: a member's own alert, as its phone sees it. `mine`: the newest alert of the caller's that is not closed
 * (its phone shows "Alerte envoyée à vos répartiteurs" from the first load); `reportOk`: "Je vais bien" after it,
 * told at once to those who take the alert (`emergencyOk`), audited. The alert stays open: a dispatcher closes it.
 * Only ever the caller's own alert: another's is "not found", whoever asks.
 */
import type { EmergencyAlert } from '@talkgroup/protocol';
import type { AuditStore } from '../audit/store.ts';
import type { Reader } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { EventBus } from '../events.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { EmergencyStore } from './store.ts';

export interface OkOrigin {
  address: string | null;
  requestId: string | null;
}

export const NO_OPEN_ALERT = 'You have no emergency alert open.';

export function ownAlerts(deps: {
  store: EmergencyStore;
  memberships: MembershipStore;
  events: EventBus;
  audit: Pick<AuditStore, 'write'>;
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
}) {
  const { store } = deps;

  /** The channels whose alert takers hear of it: the member's, and the alert's. */
  async function channelIdsOf(alert: EmergencyAlert): Promise<number[]> {
    const own = alert.userId !== null ? await deps.memberships.channelsOfMember(alert.userId) : [];
    const ids = own.map((channel) => channel.id);
    if (alert.channelId !== null) ids.push(alert.channelId);
    return [...new Set(ids)];
  }

  async function ownOpen(reader: Reader, alertId: number | undefined): Promise<EmergencyAlert> {
    if (alertId === undefined) {
      const open = await store.openOf(reader.userId);
      if (!open) throw notFound(NO_OPEN_ALERT);
      return open;
    }
    const alert = await store.byId(alertId);
    // Another's alert is no concern of the caller: not found, as if it did not exist.
    if (!alert || alert.userId !== reader.userId) throw notFound('Emergency alert');
    if (alert.closedAt) throw conflict('This emergency alert is closed already: your dispatchers know.');
    return alert;
  }

  return {
    async mine(reader: Reader): Promise<EmergencyAlert | null> {
      return (await store.openOf(reader.userId)) ?? null;
    },

    async reportOk(reader: Reader, alertId: number | undefined, origin: OkOrigin): Promise<EmergencyAlert> {
      const alert = await ownOpen(reader, alertId);
      // One transaction: the time and its audit row, or neither; the push waits for the commit.
      const ok = await deps.transaction(async () => {
        const marked = await store.markOk(alert.id);
        if (!marked) throw conflict('This emergency alert is closed already: your dispatchers know.');
        await deps.audit.write({
          actorId: reader.userId,
          action: 'alert.ok',
          targetType: 'alert',
          targetId: marked.id,
          targetName: marked.display_name,
          changes: { okAt: { before: alert.okAt ?? null, after: marked.okAt } },
          address: origin.address,
          requestId: origin.requestId,
        });
        return marked;
      });
      deps.events.emit('emergencyOk', { alert: ok, channelIds: await channelIdsOf(ok) });
      return ok;
    },
  };
}
