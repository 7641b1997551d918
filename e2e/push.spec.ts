/**
 * Web Push in the browser (issue 34): Chromium's DevTools protocol delivers pushes to the /talk service
 * worker (ServiceWorker.deliverPushMessage), which shows each one as a notification: an SOS that stays and
 * vibrates, a call with Answer and Decline, a channel's transmissions in one notification (its tag). The
 * /talk page offers the Notifications switch. A real ringing call is declined from its notification's Decline
 * with the call's decline key alone (issue 47): the member did not tick "remember me", and nothing outside the
 * tab holds a token. The server's side (encryption, VAPID, who gets what, the key's checks) is
 * packages/server/test/push.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callDeclineKeys } from '../packages/server/src/push/decline-keys.ts';
import { expect, test, useSession } from './fixtures.ts';

const PHONE = { width: 390, height: 844 };

interface Shown {
  title: string;
  body: string;
  tag: string;
  requireInteraction: boolean;
  actions: Array<{ action: string; title: string }>;
  data: { url?: string; kind?: string; callId?: number };
}

test('the service worker shows each kind of push as its notification', async ({
  page,
  seed,
  baseURL,
  server,
  admin,
}) => {
  const member = await seed.member();
  const origin = new URL(baseURL as string).origin;
  await page.context().grantPermissions(['notifications'], { origin });
  await page.setViewportSize(PHONE);
  // Not remembered: the token is in this tab's sessionStorage only.
  await useSession(page, member, { remember: false });
  await page.goto('/talk');
  await expect(page.getByRole('switch', { name: 'Notifications' })).toBeEnabled();
  // `ready` gives the registration while its worker may still be activating: a push delivered then can be lost
  // (seen on a loaded machine), so the pushes wait until the worker is activated.
  await page.evaluate(async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    if (!worker || worker.state === 'activated') return;
    await new Promise<void>((resolve) => {
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') resolve();
      });
    });
  });

  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => r.scopeURL.endsWith('/talk') && !r.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  const send = (payload: object) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: JSON.stringify(payload) });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        requireInteraction: n.requireInteraction,
        actions: [...((n as Notification & { actions?: Array<{ action: string; title: string }> }).actions ?? [])].map(
          (a) => ({ action: a.action, title: a.title }),
        ),
        data: n.data,
      })),
    ) as Promise<Shown[]>;
  const byTag = async (tag: string) => (await shown()).filter((n) => n.tag === tag);
  /**
   * Delivers a push until its notification shows (its tag, title and body): beside a loaded CI a push delivered
   * through the DevTools protocol while the worker was being started again was lost once, which says nothing of
   * what the worker shows. The checks below then read what it showed.
   */
  const deliver = async (payload: { tag: string; title: string; body: string; [field: string]: unknown }) => {
    await expect(async () => {
      await send(payload);
      await expect
        .poll(
          async () => (await byTag(payload.tag)).some((n) => n.title === payload.title && n.body === payload.body),
          {
            timeout: 15_000,
          },
        )
        .toBe(true);
    }).toPass({ timeout: 60_000 });
  };

  await deliver({
    kind: 'sos',
    title: 'SOS: Bob',
    body: 'Bob sent an emergency alert in Atelier.',
    url: '/talk/3',
    tag: 'sos-9',
  });
  await expect.poll(() => byTag('sos-9')).toHaveLength(1);
  expect((await byTag('sos-9'))[0]).toMatchObject({
    title: 'SOS: Bob',
    body: 'Bob sent an emergency alert in Atelier.',
    requireInteraction: true,
    data: { url: '/talk/3', kind: 'sos' },
  });

  await deliver({
    kind: 'call',
    title: 'Ada is calling you',
    body: 'Private call: answer or decline.',
    url: '/talk?call=4',
    tag: 'call-4',
    callId: 4,
  });
  await expect.poll(() => byTag('call-4')).toHaveLength(1);
  const call = (await byTag('call-4'))[0];
  expect(call?.data).toMatchObject({ kind: 'call', callId: 4, url: '/talk?call=4' });
  // Chromium on Linux shows two actions at most; both are there.
  expect(call?.actions).toEqual([
    { action: 'answer', title: 'Answer' },
    { action: 'decline', title: 'Decline' },
  ]);
  // Nobody answered: the same notification becomes a missed call, without actions, and stays one.
  await deliver({
    kind: 'missed_call',
    title: 'Missed call',
    body: 'Ada called you.',
    url: '/talk',
    tag: 'call-4',
    callId: 4,
  });
  await expect.poll(async () => (await byTag('call-4')).map((n) => n.title)).toEqual(['Missed call']);
  expect((await byTag('call-4'))[0]).toMatchObject({
    body: 'Ada called you.',
    requireInteraction: false,
    actions: [],
    data: { kind: 'missed_call', url: '/talk' },
  });

  // One channel, one notification: the latest transmission replaces the previous one.
  await deliver({
    kind: 'transmission',
    title: 'Atelier',
    body: 'Alice is talking in Atelier.',
    url: '/talk/3',
    tag: 'channel-3',
  });
  await expect
    .poll(async () => (await byTag('channel-3')).map((n) => n.body))
    .toEqual(['Alice is talking in Atelier.']);
  await deliver({
    kind: 'transmission',
    title: 'Atelier',
    body: 'Bob is talking in Atelier.',
    url: '/talk/3',
    tag: 'channel-3',
  });
  await expect.poll(async () => (await byTag('channel-3')).map((n) => n.body)).toEqual(['Bob is talking in Atelier.']);
  expect((await byTag('channel-3'))[0]?.requireInteraction).toBe(false);

  // Even a push without a payload of ours shows something (a silent push may cost the subscription).
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: 'not json' });
  await expect.poll(() => byTag('talkgroup')).toHaveLength(1);

  // A real call rings; its push carries the call's decline key (the server's, from DATA_DIR/secret.key).
  const channel = await seed.channel();
  await seed.addToChannel(channel.id, [admin.id, member.id]);
  const started = await server.call('/user/api/startPrivateCall', { userId: member.id }, admin.token);
  expect(started.status).toBe(200);
  const callId: number = started.body.res.callId;
  const secret = Buffer.from(readFileSync(path.join(server.dataDir, 'secret.key'), 'utf8').trim(), 'hex');
  await deliver({
    kind: 'call',
    title: 'Ada is calling you',
    body: 'Private call: answer or decline.',
    url: `/talk?call=${callId}`,
    tag: `call-${callId}`,
    callId,
    declineKey: callDeclineKeys(secret).of(callId, member.id),
  });
  await expect.poll(() => byTag(`call-${callId}`)).toHaveLength(1);
  // Nothing outside the tab holds the token: not localStorage, not the worker's cache.
  const kept = await page.evaluate(async () => {
    const state = await (await caches.open('talkgroup-push')).match('/push-state');
    return { local: localStorage.getItem('TOKEN_KEY'), cache: state ? await state.text() : '' };
  });
  expect(kept.local).toBeNull();
  expect(kept.cache).not.toContain(member.token);
  // Its Decline, as the notification's action would (DevTools cannot press a notification's button).
  const worker = page
    .context()
    .serviceWorkers()
    .find((w) => new URL(w.url()).origin === origin);
  expect(worker).toBeDefined();
  await worker?.evaluate(async (tag) => {
    // The worker's globals (the test's types are the page's).
    const scope = globalThis as unknown as {
      registration: ServiceWorkerRegistration;
      dispatchEvent(event: Event): boolean;
      NotificationEvent: new (type: string, init: { notification: Notification; action: string }) => Event;
    };
    const [notification] = await scope.registration.getNotifications({ tag });
    if (!notification) throw new Error(`no notification ${tag}`);
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification, action: 'decline' }));
  }, `call-${callId}`);
  await expect
    .poll(async () => {
      const calls = await server.call('/user/api/getPrivateCalls', {}, admin.token);
      return calls.body.res.find((call: { callId: number }) => call.callId === callId)?.state;
    })
    .toBe('declined');
  await expect.poll(() => byTag(`call-${callId}`)).toHaveLength(0);
});
