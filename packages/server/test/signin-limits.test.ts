/**
 * Sign-in limits: per account (growing delays, never a lockout of an address the account used before) and
 * per address, counted in memory or, with Redis, shared by every instance of the deployment.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryCounterStore } from '../src/auth/counter-store.ts';
import { DEFAULT_SIGN_IN_POLICY, delayAfter, signInLimits } from '../src/auth/sign-in-limits.ts';
import type { Dialect } from '../src/db/open.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

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

/** `count` wrong passwords for one account from one address: sent at once, or one after the other. */
async function wrongPasswords(apps: TestApp[], address: string, identifier: string, count: number, atOnce: boolean) {
  const tries = Array.from(
    { length: count },
    (_, i) => () => login(apps[i % apps.length], address, identifier, `wrong-password-${i}`),
  );
  const answers = atOnce ? await Promise.all(tries.map((attempt) => attempt())) : [];
  if (!atOnce) for (const attempt of tries) answers.push(await attempt());
  return {
    checked: answers.filter((a) => a.status === 401).length,
    refused: answers.filter((a) => a.status === 429),
    statuses: new Set(answers.map((a) => a.status)),
  };
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

  it('gives 30 wrong passwords sent at once no more checks than 30 sent one by one; the others are told to wait', async () => {
    const [mia, leo] = [await createMember(app, admin), await createMember(app, admin)];
    const sequence = await wrongPasswords([app], '203.0.113.40', mia.identifier, 30, false);
    const burst = await wrongPasswords([app], '203.0.113.41', leo.identifier, 30, true);
    expect(sequence.checked).toBe(DEFAULT_SIGN_IN_POLICY.freeFailures);
    expect(burst.checked).toBeLessThanOrEqual(sequence.checked);
    expect([...burst.statuses].sort()).toEqual([401, 429]);
    expect(burst.refused).toHaveLength(30 - burst.checked);
    for (const refused of burst.refused) {
      expect(refused.body).toMatchObject({
        success: false,
        code: 'sign_in_wait_account',
        result: expect.stringMatching(/wait \d+ (seconds|minutes)/),
      });
    }
  });

  it('signs in with the right password after a burst of failures, as the policy says', async () => {
    const mia = await createMember(app, admin); // signed in from 127.0.0.1: a known address
    // A few failures at once, below the free ones: the right password still signs in from anywhere, and they
    // are forgotten (the next burst has all its free tries again).
    expect((await wrongPasswords([app], '203.0.113.60', mia.identifier, 3, true)).checked).toBe(3);
    expect((await login(app, '203.0.113.60', mia.identifier, mia.password)).status).toBe(200);
    // A burst from elsewhere: the account waits, except at the addresses it signed in from before.
    const burst = await wrongPasswords([app], '203.0.113.61', mia.identifier, 30, true);
    expect(burst.checked).toBe(DEFAULT_SIGN_IN_POLICY.freeFailures);
    expect((await login(app, '203.0.113.62', mia.identifier, mia.password)).status).toBe(429);
    expect((await login(app, '127.0.0.1', mia.identifier, mia.password)).status).toBe(200);
    expect((await login(app, '203.0.113.60', mia.identifier, mia.password)).status).toBe(200);
  });

  it('limits a burst of wrong current passwords (a stolen session guessing) like a burst of sign-ins', async () => {
    const mia = await createMember(app, admin);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.fastify.inject({
          method: 'POST',
          url: '/user/api/updatePasswordUser',
          remoteAddress: '203.0.113.70',
          headers: { 'x-access-token': mia.token },
          payload: { id: mia.id, password: 'a-brand-new-pw-1', currentPassword: `guess-${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(DEFAULT_SIGN_IN_POLICY.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - DEFAULT_SIGN_IN_POLICY.freeFailures);
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
    // Two failures: the second starts a delay.
    for (let i = 0; i < 2; i += 1) await limits.attempt('ada@example.org', '203.0.113.1');
    await expect(limits.attempt('ada@example.org', '203.0.113.2')).rejects.toMatchObject({ statusCode: 429 });
    await expect
      .poll(
        () =>
          limits.attempt('ada@example.org', '203.0.113.2').then(
            () => 'allowed',
            () => 'waiting',
          ),
        {
          timeout: 10_000,
        },
      )
      .toBe('allowed');
    await limits.succeeded('ada@example.org', '203.0.113.2');
    await limits.attempt('ada@example.org', '203.0.113.1');
    await expect(limits.attempt('ada@example.org', '203.0.113.3')).resolves.toBeUndefined();
  });

  it('count an attempt before its password is checked: a burst at once gets the tries of a sequence', async () => {
    const limits = signInLimits(memoryCounterStore(), policy);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () => limits.attempt('ada@example.org', '203.0.113.1')),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(policy.freeFailures);
  });
});

describe.runIf(redisUrl)('sign-in limits shared by two instances on Redis', () => {
  describe.each(databases)('on %s', (dialect: Dialect) => {
    let cluster: Cluster;
    let apps: TestApp[];

    beforeEach(async () => {
      cluster = await startCluster(dialect);
      apps = cluster.apps;
    });
    afterEach(() => cluster.close());

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

    it('gives 30 wrong passwords sent at once to both instances no more checks than a sequence', async () => {
      const admin = await signUpAdmin(apps[0]);
      const [mia, leo] = [await createMember(apps[0], admin), await createMember(apps[1], admin)];
      const sequence = await wrongPasswords(apps, '203.0.113.40', mia.identifier, 30, false);
      const burst = await wrongPasswords(apps, '203.0.113.41', leo.identifier, 30, true);
      expect(sequence.checked).toBe(DEFAULT_SIGN_IN_POLICY.freeFailures);
      expect(burst.checked).toBeLessThanOrEqual(sequence.checked);
      expect(burst.refused).toHaveLength(30 - burst.checked);
      expect(burst.refused[0]?.body).toMatchObject({ code: 'sign_in_wait_account' });
      // The right password from an address it used before still signs in, on either instance.
      expect((await login(apps[1], '127.0.0.1', leo.identifier, leo.password)).status).toBe(200);
    });
  });
});
