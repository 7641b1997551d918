/**
 * Sign-in limits: per account (growing delays, never a lockout of an address the account used before) and
 * per address, counted in memory or, with Redis, shared by every instance of the deployment.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryCounterStore } from '../src/auth/counter-store.ts';
import { DEFAULT_SIGN_IN_POLICY, delayAfter, signInLimits } from '../src/auth/sign-in-limits.ts';
import type { Dialect } from '../src/db/open.ts';
import {
  type Account,
  buildTestApp,
  createMember,
  databases,
  signUpAdmin,
  startApp,
  type TestApp,
  testStorage,
} from './harness.ts';

const redisUrl = process.env.TEST_REDIS_URL;

async function login(app: TestApp, address: string, identifier: string, password: string) {
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/user/api/login',
    remoteAddress: address,
    payload: { user_email: identifier, user_password: password },
  });
  return { status: response.statusCode, body: response.json() };
}

/** 20 addresses take turns guessing one account's password; how many guesses were checked (401s)? */
async function guessFromTwentyAddresses(apps: TestApp[], identifier: string, rounds: number) {
  const statuses: number[] = [];
  let last: { status: number; body: any } | undefined;
  for (let round = 0; round < rounds; round += 1) {
    for (let host = 1; host <= 20; host += 1) {
      const app = apps[(round * 20 + host) % apps.length];
      last = await login(app, `203.0.113.${host}`, identifier, `guess-${round}-${host}`);
      statuses.push(last.status);
    }
  }
  return { checked: statuses.filter((s) => s === 401).length, refused: statuses.filter((s) => s === 429).length, last };
}

describe.each(databases)('sign-in limits on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  it('gives a 20-address guessing attack only a handful of tries at one account, with a clear 429', async () => {
    const attack = await guessFromTwentyAddresses([app], admin.identifier, 3);
    expect(attack.checked).toBeLessThanOrEqual(DEFAULT_SIGN_IN_POLICY.freeFailures);
    expect(attack.refused).toBe(60 - attack.checked);
    expect(attack.last?.body).toMatchObject({
      success: false,
      result: expect.stringMatching(/wait \d+ (seconds|minutes)/),
    });
    // Even the right password waits: the attacker learns nothing during the delay.
    expect((await login(app, '203.0.113.7', admin.identifier, admin.password)).status).toBe(429);
  });

  it('does not lock the administrator out: its usual address still signs in during the attack', async () => {
    await login(app, '198.51.100.1', admin.identifier, admin.password);
    await guessFromTwentyAddresses([app], admin.identifier, 2);
    expect((await login(app, '198.51.100.1', admin.identifier, admin.password)).status).toBe(200);
  });

  it('pauses an address after many failures, but not the accounts that signed in from it before', async () => {
    const mia = await createMember(app, admin);
    expect((await login(app, '192.0.2.9', mia.identifier, mia.password)).status).toBe(200);
    for (let i = 0; i < DEFAULT_SIGN_IN_POLICY.addressMaxFailures; i += 1) {
      expect((await login(app, '192.0.2.9', `nobody${i}@example.org`, 'wrong-password')).status).toBe(401);
    }
    const blocked = await login(app, '192.0.2.9', admin.identifier, admin.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.result).toMatch(/from your address/);
    expect((await login(app, '192.0.2.9', mia.identifier, mia.password)).status).toBe(200);
    expect((await login(app, '192.0.2.10', admin.identifier, admin.password)).status).toBe(200);
  });
});

describe('sign-in delays', () => {
  const policy = { ...DEFAULT_SIGN_IN_POLICY, freeFailures: 2, firstDelayMs: 200, maxDelayMs: 800 };

  it('grow with each failure up to a cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => delayAfter(n, policy))).toEqual([0, 200, 400, 800, 800, 800]);
    expect(delayAfter(5)).toBe(30_000);
    expect(delayAfter(20)).toBe(15 * 60_000);
  });

  it('end by themselves (never a lockout) and are forgotten after a success', async () => {
    const limits = signInLimits(memoryCounterStore(), policy);
    for (let i = 0; i < 3; i += 1) await limits.failed('ada@example.org', '203.0.113.1');
    await expect(limits.check('ada@example.org', '203.0.113.2')).rejects.toMatchObject({ statusCode: 429 });
    await expect
      .poll(
        () =>
          limits.check('ada@example.org', '203.0.113.2').then(
            () => 'allowed',
            () => 'waiting',
          ),
        {
          timeout: 10_000,
        },
      )
      .toBe('allowed');
    await limits.succeeded('ada@example.org', '203.0.113.2');
    await limits.failed('ada@example.org', '203.0.113.1');
    await expect(limits.check('ada@example.org', '203.0.113.3')).resolves.toBeUndefined();
  });
});

describe.runIf(redisUrl)('sign-in limits shared by two instances on Redis', () => {
  describe.each(databases)('on %s', (dialect: Dialect) => {
    const storage = () => testStorage(dialect);
    let deployment: ReturnType<typeof storage>;
    let apps: TestApp[];

    beforeEach(async () => {
      deployment = storage();
      // A prefix of its own: other test files use the same Redis at the same time.
      const redisKeyPrefix = `test-${randomBytes(4).toString('hex')}:`;
      apps = [
        await buildTestApp(deployment, { redisUrl, redisKeyPrefix, instanceId: 'one' }),
        await buildTestApp(deployment, { redisUrl, redisKeyPrefix, instanceId: 'two' }),
      ];
    });
    afterEach(async () => {
      for (const app of apps) await app.fastify.close();
      await deployment.remove();
    });

    it('counts failures on one instance against tries on the other: the back-off holds across both', async () => {
      const admin = await signUpAdmin(apps[0]);
      const attack = await guessFromTwentyAddresses(apps, admin.identifier, 3);
      expect(attack.checked).toBeLessThanOrEqual(DEFAULT_SIGN_IN_POLICY.freeFailures);
      for (const app of apps) {
        expect((await login(app, '203.0.113.99', admin.identifier, admin.password)).status).toBe(429);
      }
      // The address it signed up from is known on both instances.
      expect((await login(apps[1], '127.0.0.1', admin.identifier, admin.password)).status).toBe(200);
    });
  });
});
