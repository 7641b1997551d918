/**
 * The open SOS alerts an administrator sees: fetched once (getEmergencyAlerts), then kept live from the
 * console's socket (emergencyAlert, emergencyAcknowledged) and fetched again after a reconnection. Alerts
 * taken or closed while this console watched are kept a while, so it can say who took them, and who closed
 * them with which outcome (emergencyAcknowledged carries the close too, issue 50); so are the alerts taken in the
 * last 12 hours and not closed yet, after a reload too, so that their close is never out of reach.
 */
import {
  AcknowledgeEmergencyAlert,
  CloseEmergencyAlert,
  type EmergencyAlert,
  GetEmergencyAlerts,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';

const FIRST_PAGE = { start: 0, limit: 20 };
/** Issue 70: a closed alert's band says how it ended for this long, then goes by itself. */
export const CLOSED_BAND_MS = 10_000;
/** Alerts taken in the last hours and not closed yet are offered for closing, also after a reload. */
const TO_CLOSE_WINDOW_MS = 12 * 3600_000;
type AlertsPage = { success: boolean; res: { alerts: EmergencyAlert[]; totalRecords: number; open: number } };

function upsert(page: AlertsPage | undefined, alert: EmergencyAlert): AlertsPage | undefined {
  if (!page) return page;
  const others = page.res.alerts.filter((known) => known.id !== alert.id);
  return { ...page, res: { ...page.res, alerts: [alert, ...others] } };
}

/** closeEmergencyAlert, its answer written into the alerts already fetched (the push follows). */
export function useCloseEmergencyAlert() {
  const client = useQueryClient();
  const key = callKey(GetEmergencyAlerts, FIRST_PAGE);
  return useApiMutation(CloseEmergencyAlert, {
    onSuccess: ({ res }) => client.setQueryData<AlertsPage>(key, (page) => upsert(page, res)),
  });
}

export function useEmergencyAlerts() {
  const client = useQueryClient();
  const key = callKey(GetEmergencyAlerts, FIRST_PAGE);
  const alerts = useApiQuery(GetEmergencyAlerts, FIRST_PAGE);
  const [taken, setTaken] = useState<EmergencyAlert[]>([]);

  useServerEvent('emergencyAlert', (alert) => {
    client.setQueryData<AlertsPage>(key, (page) => upsert(page, alert));
    if (!client.getQueryData(key)) void alerts.refetch();
  });
  useServerEvent('emergencyAcknowledged', (alert) => {
    client.setQueryData<AlertsPage>(key, (page) => upsert(page, alert));
    setTaken((known) => [alert, ...known.filter((other) => other.id !== alert.id)].slice(0, 3));
  });
  // Issue 70: the member said "Je vais bien": a line on its alert, wherever it shows, and a notice.
  const [ok, setOk] = useState<EmergencyAlert | null>(null);
  useServerEvent('emergencyOk', (alert) => {
    client.setQueryData<AlertsPage>(key, (page) => upsert(page, alert));
    setTaken((known) => known.map((other) => (other.id === alert.id ? alert : other)));
    setOk(alert);
  });
  useEffect(() => {
    if (!ok) return;
    const timer = setTimeout(() => setOk(null), 10_000);
    return () => clearTimeout(timer);
  }, [ok]);
  // A reconnection may have missed alerts, and so may the first connection (an alert sent while the page loaded).
  useServerEvents(['emergencyAlert'], () => void alerts.refetch(), 1000, { firstConnection: true });

  const acknowledge = useApiMutation(AcknowledgeEmergencyAlert, {
    onSuccess: ({ res }) => client.setQueryData<AlertsPage>(key, (page) => upsert(page, res)),
  });
  const [dismissed, setDismissed] = useState<ReadonlySet<number>>(() => new Set());
  const dismissTaken = useCallback((id: number) => {
    setTaken((known) => known.filter((a) => a.id !== id));
    setDismissed((known) => new Set(known).add(id));
  }, []);

  const open = (alerts.data?.res.alerts ?? [])
    .filter((alert) => alert.acknowledgedAt === null)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  // Taken while this console watched, and taken earlier (by anyone) but not closed yet: the close is still due.
  const since = Date.now() - TO_CLOSE_WINDOW_MS;
  const toClose = (alerts.data?.res.alerts ?? []).filter(
    (alert) =>
      alert.acknowledgedAt !== null &&
      !alert.closedAt &&
      Date.parse(alert.acknowledgedAt) >= since &&
      !taken.some((known) => known.id === alert.id),
  );
  const shownTaken = [...taken, ...toClose].filter((alert) => !dismissed.has(alert.id)).slice(0, 5);
  useClosedBandsGo(shownTaken, dismissTaken);
  return { open, taken: shownTaken, acknowledge, dismissTaken, ok, dismissOk: () => setOk(null) };
}

/**
 * Issue 70: each closed alert's band goes CLOSED_BAND_MS after it showed, on its own: three stacked pushed the
 * console down by up to 175 px until each was closed by hand. A taken one stays: its close is still due.
 */
function useClosedBandsGo(shown: EmergencyAlert[], dismiss: (id: number) => void) {
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const closedIds = shown.filter((alert) => alert.closedAt).map((alert) => alert.id);
  const key = closedIds.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for closedIds
  useEffect(() => {
    for (const id of closedIds)
      if (!timers.current.has(id))
        timers.current.set(
          id,
          setTimeout(() => {
            timers.current.delete(id);
            dismiss(id);
          }, CLOSED_BAND_MS),
        );
  }, [key, dismiss]);
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);
}
