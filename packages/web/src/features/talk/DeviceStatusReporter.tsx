/**
 * Device status (issue 60 item 4): while /talk is open it tells the server about its phone (`device_status`) —
 * battery, network, whether the page is on screen, the wake lock, the last position's accuracy, the app's version
 * and whether Web Push is on — when it connects, on each change (battery, online/offline, the page shown or
 * hidden, the connection type, the wake lock, a position, the push switch) and when a dispatcher asks
 * (`device_status_request`). The dispatch console shows it; a dying battery or a closed app is flagged there.
 */
import { APP_VERSION, type DeviceStatusReportInput } from '@talkgroup/protocol';
import { useEffect } from 'react';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { DEVICE_CHANGED, deviceSignals } from './deviceSignals.ts';

/** The parts of the Battery Status and Network Information APIs read here (Chromium's; absent elsewhere). */
interface Battery extends EventTarget {
  level: number;
  charging: boolean;
}
interface Connection extends EventTarget {
  effectiveType?: string;
}
type DeviceNavigator = Navigator & { getBattery?: () => Promise<Battery>; connection?: Connection };

/** Changes come in bursts (unplugged, then the level): one report for them. */
const SETTLE_MS = 500;

async function pushSubscribed(): Promise<boolean> {
  try {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
    const registration = await navigator.serviceWorker?.getRegistration('/talk');
    return Boolean(await registration?.pushManager.getSubscription());
  } catch {
    return false;
  }
}

async function readStatus(battery: Battery | null): Promise<DeviceStatusReportInput> {
  const device = navigator as DeviceNavigator;
  const { lastPosition, wakeLockHeld } = deviceSignals();
  return {
    battery: battery ? { level: Math.min(1, Math.max(0, battery.level)), charging: battery.charging } : null,
    network: { online: navigator.onLine, effectiveType: device.connection?.effectiveType?.slice(0, 20) ?? null },
    visible: document.visibilityState === 'visible',
    wakeLock: wakeLockHeld,
    position: lastPosition,
    appVersion: APP_VERSION,
    push: await pushSubscribed(),
  };
}

export function DeviceStatusReporter() {
  const { socket, connected } = useSharedSocket();
  useEffect(() => {
    if (!socket || !connected) return;
    const device = navigator as DeviceNavigator;
    let battery: Battery | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const send = async () => {
      const status = await readStatus(battery);
      if (!stopped) socket.emit('device_status', status);
    };
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void send(), SETTLE_MS);
    };
    void send();
    device
      .getBattery?.()
      .then((found) => {
        if (stopped) return;
        battery = found;
        found.addEventListener('levelchange', soon);
        found.addEventListener('chargingchange', soon);
        soon();
      })
      .catch(() => undefined);
    const answer = () => void send();
    socket.on('device_status_request', answer);
    window.addEventListener('online', soon);
    window.addEventListener('offline', soon);
    window.addEventListener(DEVICE_CHANGED, soon);
    document.addEventListener('visibilitychange', soon);
    device.connection?.addEventListener('change', soon);
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket.off('device_status_request', answer);
      window.removeEventListener('online', soon);
      window.removeEventListener('offline', soon);
      window.removeEventListener(DEVICE_CHANGED, soon);
      document.removeEventListener('visibilitychange', soon);
      device.connection?.removeEventListener('change', soon);
      battery?.removeEventListener('levelchange', soon);
      battery?.removeEventListener('chargingchange', soon);
    };
  }, [socket, connected]);
  return null;
}
