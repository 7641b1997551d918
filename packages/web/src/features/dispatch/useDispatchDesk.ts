/**
 * What the dispatch console decides for its tiles: which one is selected (clicked, keys 1 to 9, or taken over
 * by an SOS), which are checked (the all call and the patch), and each channel's level: the tile's volume,
 * times the unselected level unless selected, 0 when muted, full while an SOS of that channel is open.
 */
import type { EmergencyAlert, MonitoredChannel } from '@talkgroup/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MonitorList } from './useMonitorList.ts';

/** Keys 1 to 9 select a tile, except while typing or on a control that uses digits. */
function digitSelects(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return true;
  return !target.closest('input, textarea, select, [contenteditable="true"], [role="slider"], [role="dialog"]');
}

export function levelOf(entry: MonitoredChannel, selected: boolean, unselectedVolume: number, sos: boolean): number {
  if (sos) return 1;
  if (entry.muted) return 0;
  return (entry.volume / 100) * (selected ? 1 : unselectedVolume / 100);
}

export function useDispatchDesk(list: MonitorList | undefined, openAlerts: EmergencyAlert[]) {
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set());
  const channels = list?.channels ?? [];
  const ids = channels.map((entry) => entry.channelId);
  const idsKey = ids.join(',');

  // The selected tile stays one of the list's (the first by default).
  const selected = selectedId !== null && ids.includes(selectedId) ? selectedId : (ids[0] ?? null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: idsKey stands for ids
  useEffect(() => {
    const digit = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || !/^[1-9]$/.test(event.key)) return;
      if (!digitSelects(event.target)) return;
      const id = ids[Number(event.key) - 1];
      if (id === undefined) return;
      event.preventDefault();
      setSelectedId(id);
    };
    window.addEventListener('keydown', digit);
    return () => window.removeEventListener('keydown', digit);
  }, [idsKey]);

  /** The open SOS of each monitored channel (its newest), by channel. */
  // biome-ignore lint/correctness/useExhaustiveDependencies: idsKey stands for ids
  const sosBy = useMemo(() => {
    const monitored = new Set(ids);
    const found = new Map<number, EmergencyAlert>();
    for (const alert of openAlerts)
      if (alert.channelId !== null && monitored.has(alert.channelId) && !found.has(alert.channelId))
        found.set(alert.channelId, alert);
    return found;
  }, [openAlerts, idsKey]);

  // An SOS takes over: a new alert in a monitored channel selects its tile (the newest one wins).
  const seen = useRef(new Set<number>());
  useEffect(() => {
    let newest: EmergencyAlert | undefined;
    for (const alert of sosBy.values()) {
      if (seen.current.has(alert.id)) continue;
      seen.current.add(alert.id);
      if (!newest || alert.createdAt > newest.createdAt) newest = alert;
    }
    if (newest?.channelId != null) setSelectedId(newest.channelId);
  }, [sosBy]);

  const check = useCallback(
    (channelId: number, on: boolean) =>
      setChecked((current) => {
        const next = new Set(current);
        if (on) next.add(channelId);
        else next.delete(channelId);
        return next;
      }),
    [],
  );

  const unselectedVolume = list?.unselectedVolume ?? 40;
  const levels = new Map(
    channels.map((entry) => [
      entry.channelId,
      levelOf(entry, entry.channelId === selected, unselectedVolume, sosBy.has(entry.channelId)),
    ]),
  );
  const checkedIds = ids.filter((id) => checked.has(id));
  return { selected, select: setSelectedId, checked, checkedIds, check, levels, sosBy };
}
