/**
 * Web Push in the browser (issue 34): Chromium's DevTools protocol delivers pushes to the /talk service
 * worker (ServiceWorker.deliverPushMessage), which shows each one as a notification: an SOS that stays and
 * vibrates, a call with Answer and Decline, a channel's transmissions in one notification (its tag). The
 * /talk page offers the Notifications switch. The server's side (encryption, VAPID, who gets what) is
 * packages/server/test/push.test.ts.
 */
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

test('the service worker shows each kind of push as its notification', async ({ page, seed, baseURL }) => {
  const member = await seed.member();
  const origin = new URL(baseURL as string).origin;
  await page.context().grantPermissions(['notifications'], { origin });
  await page.setViewportSize(PHONE);
  // Remembered: the session is in localStorage, as on a phone that signed in once.
  await useSession(page, member, { remember: true });
  await page.goto('/talk');
  await expect(page.getByRole('switch', { name: 'Notifications' })).toBeEnabled();
  await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);

  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => r.scopeURL.endsWith('/talk') && !r.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  const deliver = (payload: object) =>
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
});
