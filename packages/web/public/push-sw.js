/*
 * Web Push in the service worker (issue 34), loaded by the generated sw.js (workbox importScripts). Every push
 * shows a notification inside waitUntil (a browser may revoke a subscription that stays silent): an SOS stays
 * until it is touched and vibrates; a ringing call offers Answer and Decline (declining answers the server
 * from here, without opening the app; where actions are not shown, a tap opens the call), and becomes a missed
 * call (same tag) when nobody answered or the caller gave up; a channel's
 * transmissions share one notification (their tag). A tap focuses an open page of the app, else opens the
 * payload's url. The page keeps {language} in the cache 'talkgroup-push' for the actions' texts. No session token
 * is kept for the worker (issue 47): a ringing call's push carries its decline key, and declinePushedCall
 * declines that call, and only it, with that key.
 */
const PUSH_CACHE = 'talkgroup-push';
const PUSH_STATE = '/push-state';

const ACTION_TEXTS = {
  en: { answer: 'Answer', decline: 'Decline' },
  fr: { answer: 'Répondre', decline: 'Refuser' },
  de: { answer: 'Annehmen', decline: 'Ablehnen' },
};

async function pushState() {
  try {
    const cache = await caches.open(PUSH_CACHE);
    const response = await cache.match(PUSH_STATE);
    return response ? await response.json() : {};
  } catch {
    return {};
  }
}

function optionsFor(payload, language) {
  const base = {
    body: payload.body,
    tag: payload.tag,
    data: { url: payload.url, kind: payload.kind, callId: payload.callId, declineKey: payload.declineKey },
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    lang: language,
  };
  // Issue 60: a lone worker's check ("Are you OK?") and its dispatchers' alert stay until touched, like an SOS.
  if (payload.kind === 'sos' || payload.kind === 'lone_worker')
    return { ...base, requireInteraction: true, renotify: true, vibrate: [500, 200, 500, 200, 500] };
  if (payload.kind === 'call') {
    const texts = ACTION_TEXTS[language] ?? ACTION_TEXTS.en;
    return {
      ...base,
      requireInteraction: true,
      renotify: true,
      vibrate: [300, 150, 300, 150, 300],
      actions: [
        { action: 'answer', title: texts.answer },
        { action: 'decline', title: texts.decline },
      ],
    };
  }
  // The ringing call's notification (same tag) becomes a missed call, quietly: no actions, no ringing.
  if (payload.kind === 'missed_call') return { ...base, renotify: false };
  // A channel's transmissions replace one another without ringing again.
  if (payload.kind === 'transmission') return { ...base, renotify: false, silent: false };
  return { ...base, renotify: true };
}

self.addEventListener('push', (event) => {
  event.waitUntil(
    (async () => {
      let payload;
      try {
        payload = event.data ? event.data.json() : undefined;
      } catch {
        payload = undefined;
      }
      if (!payload || typeof payload.title !== 'string') {
        payload = {
          kind: 'unknown',
          title: 'Talkgroup',
          body: event.data ? event.data.text() : '',
          url: '/talk',
          tag: 'talkgroup',
        };
      }
      const state = await pushState();
      const language = state.language ?? (self.navigator.language || 'en').slice(0, 2);
      await self.registration.showNotification(payload.title, optionsFor(payload, language));
    })(),
  );
});

async function openOrFocus(url) {
  const target = new URL(url || '/talk', self.location.origin);
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const same = windows.find((client) => new URL(client.url).pathname === target.pathname);
  const any = same ?? windows.find((client) => new URL(client.url).origin === target.origin);
  if (any) {
    const focused = await any.focus();
    if (!same && 'navigate' in focused) {
      try {
        return await focused.navigate(target.href);
      } catch {
        // A page outside the worker's scope cannot be navigated from here: open the url instead.
      }
    } else return focused;
  }
  return self.clients.openWindow(target.href);
}

async function decline(callId, key) {
  if (callId === undefined || typeof key !== 'string') return;
  const state = await pushState();
  try {
    await fetch('/user/api/declinePushedCall', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(state.language ? { 'accept-language': state.language } : {}),
      },
      body: JSON.stringify({ callId, key }),
    });
  } catch {
    // Offline: the call stops ringing by itself (missed).
  }
}

// A version before issue 47 kept the session token here: whatever it kept goes, the language stays.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const state = await pushState();
      if (!('token' in state)) return;
      const cache = await caches.open(PUSH_CACHE);
      await cache.put(
        PUSH_STATE,
        new Response(JSON.stringify(state.language ? { language: state.language } : {}), {
          headers: { 'content-type': 'application/json' },
        }),
      );
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  const data = notification.data ?? {};
  notification.close();
  if (data.kind === 'call' && event.action === 'decline') {
    event.waitUntil(decline(data.callId, data.declineKey));
    return;
  }
  event.waitUntil(openOrFocus(data.url));
});
