/**
 * This device's Web Push subscription (issue 34): what the browser allows, turning it on (permission, the
 * service worker's PushManager with the server's VAPID key, savePushSubscription) and off (unsubscribe,
 * deletePushSubscription). The service worker (public/push-sw.js) reads {token, language} from the cache
 * 'talkgroup-push' to decline a call from its notification and to name its actions.
 */
import { DeletePushSubscription, SavePushSubscription } from '@talkgroup/protocol';
import i18next from 'i18next';
import { api } from '../../api/client.ts';
import { getToken } from '../../api/session.ts';

const PUSH_CACHE = 'talkgroup-push';
const PUSH_STATE = '/push-state';
/** Which user this device's subscription was saved for (another user signing in here turns it off). */
const OWNER_KEY = 'talkgroup.push.owner';

export type PushUnavailable = 'unsupported' | 'iosNotInstalled' | 'denied' | 'serverOff' | 'insecure';

function isIos(): boolean {
  return (
    /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1)
  );
}

function installed(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/** Why this browser cannot receive notifications now, or null when it can. */
export function pushUnavailable(publicKey: string | null | undefined): PushUnavailable | null {
  if (publicKey === null) return 'serverOff';
  if (!window.isSecureContext) return 'insecure';
  // iOS gives push to a home-screen app only (16.4 and later).
  if (isIos() && !installed()) return 'iosNotInstalled';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return null;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function keepState(): Promise<void> {
  const cache = await caches.open(PUSH_CACHE);
  await cache.put(
    PUSH_STATE,
    new Response(JSON.stringify({ token: getToken(), language: i18next.language?.slice(0, 2) || 'en' }), {
      headers: { 'content-type': 'application/json' },
    }),
  );
}

async function forgetState(): Promise<void> {
  await caches.delete(PUSH_CACHE).catch(() => false);
}

async function save(subscription: PushSubscription, userId: number): Promise<void> {
  const json = subscription.toJSON();
  await api(SavePushSubscription, {
    subscription: {
      endpoint: subscription.endpoint,
      expirationTime: subscription.expirationTime ?? null,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    },
  });
  localStorage.setItem(OWNER_KEY, String(userId));
  await keepState();
}

/**
 * Whether this device is subscribed for this user. A subscription kept by the browser for this user is saved
 * again (a new sign-in, a new session: the server removed the old one's); one of another user is removed.
 */
export async function currentSubscription(userId: number): Promise<boolean> {
  const existing = await (await registration()).pushManager.getSubscription();
  if (!existing) return false;
  if (localStorage.getItem(OWNER_KEY) !== String(userId) || Notification.permission !== 'granted') {
    await existing.unsubscribe().catch(() => false);
    localStorage.removeItem(OWNER_KEY);
    await forgetState();
    return false;
  }
  await save(existing, userId);
  return true;
}

/** Asks permission (from the switch's tap), subscribes with the server's key and saves it. */
export async function turnOn(publicKey: string, userId: number): Promise<'on' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const pushManager = (await registration()).pushManager;
  let subscription = await pushManager.getSubscription();
  const sameKey =
    subscription?.options.applicationServerKey &&
    new Uint8Array(subscription.options.applicationServerKey).join() === keyBytes(publicKey).join();
  if (subscription && !sameKey) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  await save(subscription, userId);
  return 'on';
}

export async function turnOff(): Promise<void> {
  const subscription = await (await registration()).pushManager.getSubscription();
  if (subscription) {
    await api(DeletePushSubscription, { endpoint: subscription.endpoint }).catch(() => undefined);
    await subscription.unsubscribe().catch(() => false);
  }
  localStorage.removeItem(OWNER_KEY);
  await forgetState();
}
