/**
 * Who watches a channel's live video, and its recording (issue 61 items 1 and 5), in Chromium with its fake
 * camera: an administrator sets a channel's video audience to "Every member of the channel" in its dialog; there
 * a member's /talk shows another member's stream with moving frames, while in a channel left to 'dispatch' it
 * shows nothing (the administrator's console shows that one). Narrowed back to the desks while a member watches,
 * the member's page lets the stream go and says why (issue 69). Once stopped, the stream's recording is uploaded,
 * listed in the channel's history ("Recorded videos") and plays.
 */
import { test } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { deskOn, expect, expectMovingFrames, phoneIn, shareVideo, videoLaunchOptions } from './video-support.ts';

test.use({ launchOptions: videoLaunchOptions });
// Three pages with video, two streams and a recording played back: on this slow machine, loaded, it took 4.7 and
// 5.1 minutes (a CI's run, and a fresh clone's that timed out once at 300 s); each state still waits 60 s at most.
test.describe.configure({ timeout: 480_000 });

test("'channel' shows a member's video to the other members and 'dispatch' does not; the recording is listed and plays", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const open = await seed.channel();
  const closed = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Films' });
  const olaf = await seed.member({ firstName: 'Olaf', lastName: 'Looks' });
  for (const channel of [open, closed]) await seed.addToChannel(channel.id, [mia.id, olaf.id, admin.id]);

  const office = await openAs(browser, server.baseURL, admin);
  try {
    // The administrator opens the channel's dialog and lets every member watch.
    await office.page.goto('/channelsList');
    await office.page.getByRole('searchbox', { name: 'Search channels' }).fill(open.name);
    await office.page.getByRole('button', { name: `Edit ${open.name}` }).click();
    const edit = office.page.getByRole('dialog', { name: 'Update Channel' });
    await expect(edit.getByRole('combobox', { name: 'Who sees live video' })).toHaveText(
      'Dispatchers and administrators',
    );
    await edit.getByRole('combobox', { name: 'Who sees live video' }).click();
    await office.page.getByRole('option', { name: 'Every member of the channel' }).click();
    await edit.getByRole('button', { name: 'Update' }).click();
    await expect(edit).toBeHidden();
    const channels = (await server.call('/user/api/getAllChannels', {}, admin.token)).body.res as Array<{
      id: number;
      videoAudience: string;
    }>;
    expect(channels.find((channel) => channel.id === open.id)?.videoAudience).toBe('channel');
    expect(channels.find((channel) => channel.id === closed.id)?.videoAudience).toBe('dispatch');
  } finally {
    await office.close();
  }

  const phone = await phoneIn(browser, server, mia, open.id);
  const watcher = await phoneIn(browser, server, olaf, open.id);
  const desk = await deskOn(browser, server, admin, [open.id, closed.id]);
  try {
    // 'channel': Olaf watches Mia's stream on his /talk.
    await shareVideo(phone);
    const onOlaf = watcher.page.getByRole('group', { name: 'Live video — Mia Films' });
    await expectMovingFrames(onOlaf.getByLabel('Video of Mia Films'));
    // Issue 69: narrowed back to the desks, Olaf is let go at once and told why; the stream goes on.
    const audience = (videoAudience: string) =>
      server.call(
        '/user/api/updateChannel',
        { channelId: open.id, channelName: open.name, videoAudience },
        admin.token,
      );
    expect((await audience('dispatch')).status).toBe(200);
    await expect(
      watcher.page
        .getByRole('alert')
        .filter({ hasText: `You may no longer watch Mia Films's video in ${open.name}: your rights changed.` }),
    ).toBeVisible();
    await expect(onOlaf).toBeHidden();
    await expect(phone.page.getByRole('button', { name: 'Stop video' })).toBeVisible();
    expect((await audience('channel')).status).toBe(200);
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(phone.page.getByText('Video recording uploaded.')).toBeVisible();

    // 'dispatch': the console shows Mia's stream, Olaf's /talk in that channel does not.
    await phone.page.goto(`/talk/${closed.id}`);
    await watcher.page.goto(`/talk/${closed.id}`);
    for (const page of [phone.page, watcher.page])
      await expect(page.getByRole('button', { name: 'Push to talk' })).toBeEnabled();
    await shareVideo(phone);
    const onDesk = desk.page
      .getByRole('region', { name: `Channel ${closed.name}` })
      .getByRole('group', { name: 'Live video — Mia Films' });
    await expectMovingFrames(onDesk.getByLabel('Video of Mia Films'));
    await expect(watcher.page.getByRole('group', { name: /^Live video — / })).toHaveCount(0);
    const olafSees = await server.call('/user/api/getLiveVideos', {}, olaf.token);
    expect(olafSees.body.res).toEqual([]);
    await phone.page.getByRole('button', { name: 'Stop video' }).click();
    await expect(onDesk).toBeHidden();

    // The first stream's recording, in the open channel's history on Olaf's phone: listed, and it plays.
    await watcher.page.goto(`/talk/${open.id}`);
    await watcher.page.getByRole('tab', { name: /^Messages/ }).click();
    await watcher.page.getByRole('button', { name: 'Recorded videos' }).click();
    const list = watcher.page.getByRole('dialog', { name: `Recorded videos — ${open.name}` });
    const player = list.getByLabel(/^Recording of Mia Films at /);
    await expect(player).toHaveCount(1);
    await player.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect
      .poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { message: 'it plays' })
      .toBeGreaterThan(0.2);
    const played = await player.evaluate((element: HTMLVideoElement) => ({
      width: element.videoWidth,
      duration: element.duration,
    }));
    expect(played.width).toBeGreaterThan(0);
    expect(played.duration).toBeGreaterThan(0);
    const recordings = await server.call('/user/api/getChannelVideos', { channelId: open.id }, olaf.token);
    expect(recordings.body.res).toHaveLength(1);
    expect(recordings.body.res[0].durationMs).toBeGreaterThan(0);
  } finally {
    await Promise.all([phone.close(), watcher.close(), desk.close()]);
  }
});
