/**
 * Deletes of months of rows never hold the main thread for their whole length (issue 57): on SQLite a statement
 * runs on the main thread, so the activity log's "delete older than", the positions' and the voice history's
 * retention sweeps delete a batch per statement and let the event loop turn between them; an import seals its
 * rows a slice at a time. Checked by a chain of
 * setImmediate callbacks that counts the loop's turns while the delete runs: one statement would give it none.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepExpiredPositions } from '../src/positions/retention.ts';
import { sweepExpiredVoice } from '../src/voice/retention.ts';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

const DAY = 86_400_000;
const OLD = new Date(Date.now() - 400 * DAY).toISOString();

/** Runs `work`, counting the event loop's turns (setImmediate callbacks) until it is done. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const chain = () => {
    if (!running) return;
    turns++;
    setImmediate(chain);
  };
  setImmediate(chain);
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
  }
}

/** `count` rows made by `row(i)`, inserted 500 a statement. */
async function insertMany<R>(count: number, row: (i: number) => R, insert: (rows: R[]) => Promise<unknown>) {
  for (let start = 0; start < count; start += 500)
    await insert(Array.from({ length: Math.min(500, count - start) }, (_, i) => row(start + i)));
}

describe.each(databases)('deletes of many rows on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  it('deletes old activities a batch at a time, the loop turning between, and keeps the recent', async () => {
    await insertMany(
      5000,
      (i) => ({ type: 'login', user_display_name: `n${i}`, created_at: OLD }),
      (rows) => app.services.db.insertInto('activities').values(rows).execute(),
    );
    const { result, turns } = await turnsDuring(() =>
      app.call('/user/api/deleteOldActivities', { timeFrame: '1w' }, admin.token),
    );
    expect(result.body.deleted).toBe(5000);
    expect(turns).toBeGreaterThanOrEqual(2);
    const left = await app.call('/user/api/getAllActivities/', { start: 0, limit: 5 }, admin.token);
    expect(left.body.res.totalRecords).toBeGreaterThanOrEqual(1);
  });

  it('sweeps old positions and transmissions a batch at a time, the loop turning between', async () => {
    await insertMany(
      2500,
      (i) => ({ user_id: admin.id, lat: i / 1000, lng: 1, accuracy: null, created_at: OLD }),
      (rows) => app.services.db.insertInto('user_positions').values(rows).execute(),
    );
    const positions = await turnsDuring(() =>
      sweepExpiredPositions(app.services.positions, app.config.positionRetentionMs),
    );
    expect(positions.result).toBe(2500);
    expect(positions.turns).toBeGreaterThanOrEqual(2);

    const channel = (await app.call('/user/api/createChannel', { channelName: 'quai' }, admin.token)).body.res;
    await insertMany(
      120,
      (i) => ({
        channel_id: channel.id,
        user_id: admin.id,
        user_display_name: 'Admin',
        file_name: `${i.toString(16).padStart(32, '0')}.webm`,
        mime: 'audio/webm' as const,
        size_bytes: 100,
        duration_ms: 1000,
        client_id: null,
        talk_burst_id: null,
        created_at: OLD,
        uploaded_at: OLD,
      }),
      (rows) => app.services.db.insertInto('voice_messages').values(rows).execute(),
    );
    const voice = await turnsDuring(() => sweepExpiredVoice(app.services.voice, app.config.voiceRetentionMs));
    expect(voice.result).toBe(120);
    expect(voice.turns).toBeGreaterThanOrEqual(2);
  });

  it("stores an import's rows sealed a slice at a time, the loop turning between", async () => {
    const userData = Array.from({ length: 3000 }, (_, i) => ({
      firstName: 'Turn',
      lastName: `Row ${i}`,
      identifier: `turn${i}@example.org`,
      password: `Turn-pass-${i}-2025`,
    }));
    const { result, turns } = await turnsDuring(() =>
      app.call('/user/api/createMultipleUsers', { userData }, admin.token),
    );
    expect(result.status).toBe(200);
    expect(result.body.total).toBe(3000);
    expect(turns).toBeGreaterThanOrEqual(5);
  });
});
