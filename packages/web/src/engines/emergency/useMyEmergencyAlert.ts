/**
 * Issue 70: the member's own alert that is not closed, as its phone shows it: read on load (getMyEmergencyAlert),
 * then kept by the pushes its own sockets get whatever page is open (emergencyAlert raised, emergencyAcknowledged
 * taken or closed, emergencyOk), and read again after a reconnection. `reportOk` is its "Je vais bien".
 */
import { type EmergencyAlert, GetMyEmergencyAlert, ReportOk } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';

const MINE = callKey(GetMyEmergencyAlert, {});
type Mine = { success: boolean; res: EmergencyAlert | null };

export function useMyEmergencyAlert() {
  const client = useQueryClient();
  const selfId = useSession()?.user?.id;
  const mine = useApiQuery(GetMyEmergencyAlert, {});
  /** A push about one of this member's alerts: a closed one leaves (an older one still open is read again). */
  const follow = (alert: EmergencyAlert) => {
    if (selfId === undefined || alert.userId !== selfId) return;
    const shown = client.getQueryData<Mine>(MINE)?.res;
    if (alert.closedAt) {
      if (!shown || shown.id === alert.id) void mine.refetch();
      return;
    }
    // An older alert's news never hides a newer one.
    if (shown && shown.id > alert.id) return;
    client.setQueryData<Mine>(MINE, { success: true, res: alert });
  };
  useServerEvent('emergencyAlert', follow);
  useServerEvent('emergencyAcknowledged', follow);
  useServerEvent('emergencyOk', follow);
  useServerEvents(['resync'], () => void mine.refetch(), 300, { firstConnection: false });
  useServerEvents(['emergencyAlert'], () => void mine.refetch(), 1000, { firstConnection: true });
  const reportOk = useApiMutation(ReportOk, {
    onSuccess: ({ res }) => client.setQueryData<Mine>(MINE, { success: true, res }),
  });
  return { alert: mine.data?.res ?? null, reportOk };
}
