/**
 * The whole lists (getAllUsers, getAllChannels) keep the protocol's answer field for field, carry an ETag
 * (304 while unchanged) and are compressed when asked.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { GetAllChannels, GetAllUsers } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseEncoding } from '../src/http/lists.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe('choosing an encoding', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('identity')).toBe('identity');
  });
});

describe.each(databases)('whole lists on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let member: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    member = await createMember(app, admin, { firstName: 'Mia' });
    const red = await app.services.channels.create('Red Team');
    await app.services.memberships.add(red.id, [admin.id, member.id]);
    await app.services.positions.add(member.id, { lat: 48.85, lng: 2.35, accuracy: 10 });
  });
  afterEach(async () => {
    await app.close();
  });

  const post = (url: string, headers: Record<string, string> = {}, token = admin.token) =>
    app.fastify.inject({ method: 'POST', url, headers: { 'x-access-token': token, ...headers }, payload: {} });

  for (const [url, call] of [
    ['/user/api/getAllUsers', GetAllUsers],
    ['/user/api/getAllChannels', GetAllChannels],
  ] as const) {
    it(`${url}: the protocol's fields and no more, an ETag and a 304 while unchanged`, async () => {
      const first = await post(url);
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      const body = first.json();
      expect(body.success).toBe(true);
      expect(body.res.length).toBeGreaterThan(0);
      // What the schema would let out is exactly what is sent.
      expect(JSON.parse(JSON.stringify(call.response.parse(body)))).toEqual(body);

      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await post(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      await createMember(app, admin, { firstName: 'Noah' });
      await app.services.channels.create('Blue Team');
      const changed = await post(url, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    });

    it(`${url}: br or gzip when asked, the same JSON once decoded`, async () => {
      const plain = await post(url);
      const br = await post(url, { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
      const gz = await post(url, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(br.headers.vary).toMatch(/accept-encoding/i);
    });

    it(`${url}: built again only when something it shows changed, whoever wrote it`, async () => {
      const build = vi.spyOn(url.endsWith('Users') ? app.services.users : app.services.channels, 'all');
      const first = await post(url);
      const second = await post(url);
      expect(build).toHaveBeenCalledTimes(1);
      expect(second.headers.etag).toBe(first.headers.etag);
      // A socket row written straight into the table (another instance's presence, say) is seen.
      const channel = await app.services.channels.create('Green Team');
      await app.services.memberships.add(channel.id, [member.id]);
      const before = await post(url);
      await app.services.db
        .insertInto('user_sockets')
        .values({
          user_id: member.id,
          channel_id: channel.id,
          socket_id: 'elsewhere',
          instance_id: 'another',
          mic_state: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      const after = await post(url);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const text = after.body;
      expect(text).toContain(url.endsWith('Users') ? '"socket_id":"elsewhere"' : '"connected":1');
      build.mockRestore();
    });

    it(`${url}: still for administrators only`, async () => {
      expect((await post(url, {}, member.token)).statusCode).toBe(403);
      expect((await post(url, {}, '')).statusCode).toBe(401);
    });
  }
});
