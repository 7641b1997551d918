/**
 * The voice mode a channel is created with (issue 26): the channel dialog's "Voice through the media server"
 * switch, turned off, sends createChannel `voiceMode: 'mesh'`, and the channel keeps it; left on, or with no
 * `voiceMode`, the channel goes through the media server. The dialog itself, and the switch shown only where a
 * media server carries the voice, are e2e/channels.spec.ts's; the pages' moves when it changes later are
 * media-janus.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('the voice mode of a new channel on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    // A media server configured (the dialog offers the choice only then); none needs to answer for these calls.
    app = await startApp(dialect, { janusUrls: ['ws://127.0.0.1:1'] });
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const create = (channelName: string, extra: object = {}) =>
    app.call('/user/api/createChannel', { channelName, userId: admin.id, ...extra }, admin.token);
  const listed = async (id: number) =>
    (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.find(
      (channel: { id: number }) => channel.id === id,
    );

  it("keeps 'mesh' asked at the creation, goes through the media server otherwise, and refuses another mode", async () => {
    const small = await create('Small team', { voiceMode: 'mesh' });
    expect(small.status).toBe(200);
    expect(small.body.res.voiceMode).toBe('mesh');
    expect((await listed(small.body.res.id)).voiceMode).toBe('mesh');

    const asked = await create('Through the server', { voiceMode: 'server' });
    expect(asked.status).toBe(200);
    expect((await listed(asked.body.res.id)).voiceMode).toBe('server');

    const unsaid = await create('Default');
    expect(unsaid.status).toBe(200);
    expect((await listed(unsaid.body.res.id)).voiceMode).toBe('server');

    // A mode it does not know is refused, and makes no channel.
    expect((await create('Odd', { voiceMode: 'sfu' })).status).toBe(400);
    const names = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.map(
      (channel: { name: string }) => channel.name,
    );
    expect(names).not.toContain('Odd');
  });
});
