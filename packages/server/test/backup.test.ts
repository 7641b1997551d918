/**
 * Backup and restore: an archive taken while clients write restores into an empty DATA_DIR to a working
 * server holding every write acknowledged before the backup began, its images (same bytes, same signed
 * links: the key comes back too); restore refuses a folder in use; the commands run as processes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { createBackup } from '../src/ops/backup.ts';
import { restoreBackup } from '../src/ops/restore.ts';
import { getFile, pngImage, upload } from './chat-fixtures.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('backup and restore on SQLite', () => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let channelId: number;
  let work: string;

  beforeEach(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'talkgroup-backup-test-'));
    app = await startApp('sqlite', { chatMessagesPerMinute: 100_000 });
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { password: 'mia-password-1' });
    channelId = (await app.call('/user/api/createChannel', { channelName: 'Ops' }, admin.token)).body.res.id;
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId }, admin.token);
  });
  afterEach(async () => {
    await app.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('restores a backup taken under write load with every acknowledged write, images and links', async () => {
    const image = pngImage(3, 3, 64);
    const sent = await upload(
      app,
      mia.token,
      { channelId, textMsg: 'the map' },
      { fileName: 'map.png', contentType: 'image/png', bytes: image },
    );
    expect(sent.status).toBe(200);

    // Two writers send messages without pause while the backup runs.
    const acknowledged: Array<{ id: number; at: number }> = [];
    let writing = true;
    const writer = async (who: Account) => {
      for (let i = 0; writing; i++) {
        const answer = await app.call(
          '/user/api/sendMessageToChannel',
          { channelId, message: `${who.id}-${i}` },
          who.token,
        );
        if (answer.status === 200) acknowledged.push({ id: answer.body.res.id, at: performance.now() });
      }
    };
    const writers = [writer(admin), writer(mia)];
    while (acknowledged.length < 20) await new Promise((resolve) => setImmediate(resolve));
    const startedAt = performance.now();
    const archive = path.join(work, 'backup.zip');
    const report = await createBackup(app.config, archive);
    const during = acknowledged.length;
    while (acknowledged.length < during + 10) await new Promise((resolve) => setImmediate(resolve));
    writing = false;
    await Promise.all(writers);
    expect(report.files).toBeGreaterThanOrEqual(3);

    const before = acknowledged.filter((write) => write.at < startedAt).map((write) => write.id);
    const restoredDir = path.join(work, 'restored');
    restoreBackup({ ...app.config, dataDir: restoredDir }, archive);
    const restored = await buildApp({ ...loadConfig({ DATA_DIR: restoredDir }), webDir: undefined });
    try {
      const rows = await restored.services.db.selectFrom('messages').select(['id', 'text_msg']).execute();
      const ids = new Set(rows.map((row) => row.id));
      for (const id of before) expect(ids.has(id)).toBe(true);
      // Nothing in the copy that the original does not have, word for word.
      const original = new Map(
        (await app.services.db.selectFrom('messages').select(['id', 'text_msg']).execute()).map((row) => [
          row.id,
          row.text_msg,
        ]),
      );
      for (const row of rows) expect(original.get(row.id)).toBe(row.text_msg);

      // A working server: sign-in, the chat, and the image by its old signed link (the key came back).
      const call = async (url: string, body: object, token?: string) => {
        const response = await restored.fastify.inject({
          method: 'POST',
          url,
          headers: token ? { 'x-access-token': token } : {},
          payload: body,
        });
        return { status: response.statusCode, body: response.json() };
      };
      const login = await call('/user/api/login', { user_email: mia.identifier, user_password: 'mia-password-1' });
      expect(login.status).toBe(200);
      const list = await call(
        '/user/api/getchannelmessagelistForAdmin',
        { channelId, limit: 100 },
        login.body.user.authToken,
      );
      expect(list.status).toBe(200);
      const withImage = (
        await app.call('/user/api/getchannelmessagelistForAdmin', { channelId, beforeId: before[0] + 1 }, mia.token)
      ).body.discussion.find((m: { file: unknown }) => m.file);
      const served = await getFile({ fastify: restored.fastify } as TestApp, withImage.file.path);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload).toEqual(image);
      expect(readFileSync(path.join(restoredDir, 'secret.key'), 'utf8')).toBe(
        readFileSync(path.join(app.config.dataDir, 'secret.key'), 'utf8'),
      );
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore into a DATA_DIR that is in use', async () => {
    const archive = path.join(work, 'b.zip');
    await createBackup(app.config, archive);
    expect(() => restoreBackup(app.config, archive)).toThrow(/not empty/);
    writeFileSync(path.join(work, 'not-a-backup.zip'), 'hello');
    expect(() =>
      restoreBackup({ ...app.config, dataDir: path.join(work, 'empty') }, path.join(work, 'not-a-backup.zip')),
    ).toThrow(/not a Talkgroup backup/);
  });

  it('runs as npm run backup / npm run restore / npm run admin would, then the restored data signs in', async () => {
    const archive = path.join(work, 'cli.zip');
    const env = { ...process.env, DATA_DIR: app.config.dataDir, DATABASE_URL: '', INIT_CWD: work };
    const backedUp = await run(process.execPath, [path.join(ROOT, 'packages/server/src/ops/backup.ts'), 'cli.zip'], {
      env,
    });
    expect(backedUp.stdout).toMatch(/Backup written to .*cli\.zip/);
    const target = path.join(work, 'from-cli');
    const restoreEnv = { ...env, DATA_DIR: target };
    const restored = await run(process.execPath, [path.join(ROOT, 'packages/server/src/ops/restore.ts'), archive], {
      env: restoreEnv,
    });
    expect(restored.stdout).toMatch(/Restored \d+ files/);

    const admin = path.join(ROOT, 'packages/server/src/ops/admin.ts');
    const promoted = await run(process.execPath, [admin, 'promote', mia.identifier], { env: restoreEnv });
    expect(promoted.stdout).toMatch(/now an administrator/);
    const reset = await run(process.execPath, [admin, 'reset-password', mia.identifier], {
      env: { ...restoreEnv, TALKGROUP_PASSWORD: 'a-fresh-start-42' },
    });
    expect(reset.stdout).toMatch(/New password set/);
    const created = await run(process.execPath, [admin, 'create', 'rescue@example.org', 'Res', 'Cue'], {
      env: restoreEnv,
    });
    const generated = created.stdout.match(/Password: (\S+)/)?.[1];
    expect(generated).toBeTruthy();
    const weak = run(process.execPath, [admin, 'reset-password', mia.identifier], {
      env: { ...restoreEnv, TALKGROUP_PASSWORD: 'password' },
    });
    await expect(weak).rejects.toMatchObject({ code: 2 });

    const server = await buildApp({ ...loadConfig({ DATA_DIR: target }), webDir: undefined });
    try {
      const probe = { fastify: server.fastify } as TestApp;
      const login = async (identifier: string, password: string) =>
        (
          await probe.fastify.inject({
            method: 'POST',
            url: '/user/api/login',
            payload: { user_email: identifier, user_password: password },
          })
        ).json();
      expect((await login(mia.identifier, 'a-fresh-start-42')).user).toMatchObject({ role: 'admin' });
      expect((await login('rescue@example.org', generated as string)).user).toMatchObject({ role: 'admin' });
      const audit = await server.services.audit.page({ start: 0, limit: 10 });
      expect(audit.entries.map((e) => e.action)).toEqual(
        expect.arrayContaining(['user.create', 'user.password', 'user.update']),
      );
    } finally {
      await server.close();
    }
  });
});
