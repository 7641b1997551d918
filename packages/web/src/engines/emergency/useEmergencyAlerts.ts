/**
 * The open SOS alerts an administrator sees: fetched once (getEmergencyAlerts), then kept live from the
 * console's socket (emergencyAlert, emergencyAcknowledged) and fetched again after a reconnection. Alerts
 * taken or closed while this console watched are kept a while, so it can say who took them, and who closed
 * them with which outcome (emergencyAcknowledged carries the close too, issue 50).
 */
import {
  AcknowledgeEmergencyAlert,
  CloseEmergencyAlert,
  type EmergencyAlert,
  GetEmergencyAlerts,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';

const FIRST_PAGE = { start: 0, limit: 20 };
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
  // A reconnection may have missed alerts.
  useServerEvents(['emergencyAlert'], () => void alerts.refetch(), 1000);

  const acknowledge = useApiMutation(AcknowledgeEmergencyAlert, {
    onSuccess: ({ res }) => client.setQueryData<AlertsPage>(key, (page) => upsert(page, res)),
  });
  const dismissTaken = useCallback((id: number) => setTaken((known) => known.filter((a) => a.id !== id)), []);

  const open = (alerts.data?.res.alerts ?? [])
    .filter((alert) => alert.acknowledgedAt === null)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { open, taken, acknowledge, dismissTaken };
}
