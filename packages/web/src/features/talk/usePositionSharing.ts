/**
 * Position sharing from the member's phone, only with its consent (a switch, remembered on this device):
 * navigator.geolocation.watchPosition, each worthwhile position (positionThrottle.ts) sent over the room's
 * socket as onLocationChanged. The server keeps it and pushes it to the administrators' maps.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { notePosition } from './deviceSignals.ts';
import { type ReportedPosition, shouldReport } from './positionThrottle.ts';

const CONSENT_KEY = 'talkgroup.sharePosition';
/**
 * A phone that stands still sends its position again this often, moved or not: an area channel counts 15 minutes
 * without a report as leaving its zone (issue 59), and the maps' positions go stale after POSITION_STALE_SECONDS.
 */
export const POSITION_HEARTBEAT_MS = 4 * 60_000;

export type PositionSharingStatus = 'off' | 'waiting' | 'sharing' | 'denied' | 'unavailable';

function readConsent(): boolean {
  try {
    return localStorage.getItem(CONSENT_KEY) === 'on';
  } catch {
    return false;
  }
}

function writeConsent(on: boolean): void {
  try {
    if (on) localStorage.setItem(CONSENT_KEY, 'on');
    else localStorage.removeItem(CONSENT_KEY);
  } catch {
    // storage disabled: the choice lasts for this page
  }
}

export function usePositionSharing(socket: TalkgroupSocket | null, connected: boolean) {
  const supported = typeof navigator !== 'undefined' && 'geolocation' in navigator;
  const [enabled, setEnabled] = useState(() => supported && readConsent());
  const [status, setStatus] = useState<PositionSharingStatus>(supported ? 'off' : 'unavailable');
  const [lastSentAt, setLastSentAt] = useState<number | null>(null);
  const lastSent = useRef<ReportedPosition | null>(null);
  const latest = useRef<GeolocationPosition | null>(null);

  const send = useCallback(
    (position: GeolocationPosition, force: boolean) => {
      if (!socket?.connected) return;
      const next = { lat: position.coords.latitude, lng: position.coords.longitude, at: Date.now() };
      if (!force && !shouldReport(lastSent.current, next)) return;
      const accuracy = Number.isFinite(position.coords.accuracy) ? position.coords.accuracy : undefined;
      socket.emit('onLocationChanged', { lat: next.lat, lng: next.lng, accuracy });
      // Issue 60: the device status tells how precise the last shared position was, and when.
      notePosition(accuracy);
      lastSent.current = next;
      setLastSentAt(next.at);
    },
    [socket],
  );

  useEffect(() => {
    if (!enabled || !supported) {
      setStatus(supported ? 'off' : 'unavailable');
      return;
    }
    setStatus('waiting');
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        latest.current = position;
        setStatus('sharing');
        send(position, false);
      },
      (error) => {
        setStatus(error.code === error.PERMISSION_DENIED ? 'denied' : 'waiting');
      },
      { enableHighAccuracy: true, maximumAge: 5_000, timeout: 60_000 },
    );
    return () => navigator.geolocation.clearWatch(watch);
  }, [enabled, supported, send]);

  // Standing still is not silence: the last position again, every few minutes.
  useEffect(() => {
    if (!enabled || !connected) return;
    const timer = setInterval(() => {
      if (latest.current) send(latest.current, true);
    }, POSITION_HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [enabled, connected, send]);

  // After a reconnect, the map learns where the phone is now, whatever the throttle says.
  useEffect(() => {
    if (enabled && connected && latest.current) send(latest.current, true);
  }, [enabled, connected, send]);

  const setSharing = useCallback((on: boolean) => {
    writeConsent(on);
    setEnabled(on);
    if (!on) {
      lastSent.current = null;
      latest.current = null;
      setLastSentAt(null);
    }
  }, []);

  return { supported, enabled, status, lastSentAt, setSharing };
}
