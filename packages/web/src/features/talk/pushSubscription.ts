/**
 * This device's Web Push subscription (issue 34): what the browser allows, turning it on (permission, the
 * service worker's PushManager with the server's VAPID key, savePushSubscription) and off (unsubscribe,
 * deletePushSubscription). The service worker (public/push-sw.js) reads {language} from the cache
 * 'talkgroup-push' to name a call's actions. No session token is kept there (issue 47: nothing outlives the tab
 * when "remember me" is off): a call's push carries its own decline key, all the worker needs to decline it.
 */
import { DeletePushSubscription, SavePushSubscription } from '@talkgroup/protocol';
import i18next from 'i18next';
import { ApiError, api } from '../../api/client.ts';
import { deviceChanged } from './deviceSignals.ts';

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

/** The language of the notifications' actions; written over any state an older version kept (its token). */
async function keepState(): Promise<void> {
  const cache = await caches.open(PUSH_CACHE);
  await cache.put(
    PUSH_STATE,
    new Response(JSON.stringify({ language: i18next.language?.slice(0, 2) || 'en' }), {
      headers: { 'content-type': 'application/json' },
    }),
  );
}

async function forgetState(): Promise<void> {
  await caches.delete(PUSH_CACHE).catch(() => false);
}

/** Saves the subscription; false when the server holds its endpoint for another account (409). */
async function save(subscription: PushSubscription, userId: number): Promise<boolean> {
  const json = subscription.toJSON();
  try {
    await api(SavePushSubscription, {
      subscription: {
        endpoint: subscription.endpoint,
        expirationTime: subscription.expirationTime ?? null,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      },
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'push_endpoint_taken') return false;
    throw error;
  }
  localStorage.setItem(OWNER_KEY, String(userId));
  await keepState();
  return true;
}

/**
 * Whether this device is subscribed for this user. A subscription kept by the browser for this user is saved
 * again (a new sign-in, a new session: the server moves it to this one); one of another user is removed, and so
 * is one whose endpoint the server holds for another account.
 */
export async function currentSubscription(userId: number): Promise<boolean> {
  const existing = await (await registration()).pushManager.getSubscription();
  if (!existing) return false;
  if (
    localStorage.getItem(OWNER_KEY) !== String(userId) ||
    Notification.permission !== 'granted' ||
    !(await save(existing, userId))
  ) {
    await existing.unsubscribe().catch(() => false);
    localStorage.removeItem(OWNER_KEY);
    await forgetState();
    return false;
  }
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
  const subscribe = () => pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  subscription ??= await subscribe();
  if (!(await save(subscription, userId))) {
    // Its endpoint is another account's on the server: a new subscription gets an endpoint of its own.
    await subscription.unsubscribe();
    if (!(await save(await subscribe(), userId))) throw new Error('push endpoint refused twice');
  }
  // Issue 60: the device status says whether Web Push is on.
  deviceChanged();
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
  deviceChanged();
}
