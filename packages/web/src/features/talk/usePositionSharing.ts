/**
 * Position sharing from the member's phone, only with its consent (a switch, remembered on this device):
 * navigator.geolocation.watchPosition, each worthwhile position (positionThrottle.ts) sent over the room's
 * socket as onLocationChanged. The server keeps it and pushes it to the administrators' maps.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { type ReportedPosition, shouldReport } from './positionThrottle.ts';

const CONSENT_KEY = 'talkgroup.sharePosition';

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
      socket.emit('onLocationChanged', {
        lat: next.lat,
        lng: next.lng,
        accuracy: Number.isFinite(position.coords.accuracy) ? position.coords.accuracy : undefined,
      });
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
