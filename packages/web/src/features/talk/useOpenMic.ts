/**
 * Issue 70: the microphone an alert opened without the member's press (`floor_granted` with reason 'emergency'):
 * why (the alert's reason, who raised it for the member) and the seconds left, until the floor is revoked or idle
 * or its time is out. Heard on the tab's one socket, whichever /talk page is open.
 */
import type { OpenMicAlert } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useServerEvent } from '../../api/serverEvents.ts';

interface OpenMic {
  room: string;
  endsAt: number;
  alert?: OpenMicAlert;
}

export function useOpenMic(): { alert?: OpenMicAlert; secondsLeft: number } | null {
  const [open, setOpen] = useState<OpenMic | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useServerEvent('floor_granted', (payload) => {
    if (payload.reason !== 'emergency') return;
    setNow(Date.now());
    setOpen({ room: payload.room, endsAt: Date.now() + payload.holdMs, alert: payload.alert });
  });
  const closeIn = ({ room }: { room: string }) => setOpen((known) => (known?.room === room ? null : known));
  useServerEvent('floor_revoked', closeIn);
  useServerEvent('floor_idle', closeIn);
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= open.endsAt) setOpen(null);
    }, 250);
    return () => clearInterval(timer);
  }, [open]);
  if (!open || now >= open.endsAt) return null;
  return { alert: open.alert, secondsLeft: Math.max(1, Math.ceil((open.endsAt - now) / 1000)) };
}
