/**
 * Passkeys off and passkeys' challenges (issues 38 and 47): without PUBLIC_URL there is no relying party, so every
 * passkey call says passkeys are off, the pages are told, and the start says which variable to set; challenges
 * nobody answered are swept every minute.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { passkeysStartLine } from '../src/auth/passkeys.ts';
import { databases, signUpAdmin, startApp } from './harness.ts';
import { softAuthenticator } from './webauthn-authenticator.ts';

const SITE = 'https://talk.example.org';

describe.each(databases)('passkeys without PUBLIC_URL on %s', (dialect) => {
  it('are off: every passkey call says so, the pages are told, and a passkey is no factor', async () => {
    const app = await startApp(dialect);
    try {
      const admin = await signUpAdmin(app);
      // A passkey kept from when PUBLIC_URL was set, which verified its user.
      await app.services.db
        .insertInto('passkeys')
        .values({
          user_id: admin.id,
          credential_id: 'kept-from-before',
          public_key: 'AA',
          counter: 1,
          transports: '[]',
          name: 'Old key',
          created_at: new Date().toISOString(),
          user_verified: 1,
        })
        .execute();
      const headers = { 'x-access-token': admin.token, host: 'radio.example.com:8443', 'accept-language': 'en' };
      // Well-formed answers, so that the refusal is the server's and not the body's.
      const key = softAuthenticator();
      const origin = 'http://radio.example.com:8443';
      const made = { rp: { id: 'radio.example.com' }, user: { id: 'AAAA' }, challenge: 'AAAA' };
      const asked = { rpId: 'radio.example.com', challenge: 'AAAA' };
      for (const url of [
        '/user/api/startPasskeyRegistration',
        '/user/api/finishPasskeyRegistration',
        '/user/api/getPasskeys',
        '/user/api/deletePasskey',
        '/user/api/startPasskeySignIn',
        '/user/api/finishPasskeySignIn',
      ]) {
        const payload: object = url.endsWith('Registration')
          ? { credential: key.register(made, origin) }
          : url.endsWith('SignIn')
            ? { credential: key.authenticate(asked, origin) }
            : url.includes('delete')
              ? { id: 1 }
              : {};
        const refused = await app.fastify.inject({ method: 'POST', url, headers, payload });
        expect([url, refused.statusCode, refused.json().code]).toEqual([url, 400, 'passkeys_off']);
        expect(refused.json().result).toMatch(/PUBLIC_URL/);
      }
      expect((await app.call('/user/api/getSignInOptions', {})).body).toMatchObject({ passkeys: false });
      expect((await app.call('/user/api/getClientConfig', {}, admin.token)).body.res).toMatchObject({
        passkeys: false,
      });
      // The administrators' role must have a second factor: the old passkey does not count (it cannot sign in),
      // so the password opens the setup instead of sending the administrator to a passkey.
      await app.call('/user/api/setSecurityPolicy', { requireSecondFactor: ['admin'] }, admin.token);
      const signedIn = await app.call('/user/api/login', {
        user_email: admin.identifier,
        user_password: admin.password,
      });
      expect(signedIn).toMatchObject({ status: 200, body: { secondFactorSetupRequired: true } });
    } finally {
      await app.close();
    }
  });
});

describe('passkeys without PUBLIC_URL', () => {
  it('say so at start, naming PUBLIC_URL', () => {
    expect(passkeysStartLine(undefined)).toMatch(/passkeys are off: set PUBLIC_URL/);
    expect(passkeysStartLine('https://talk.example.org')).toBeUndefined();
  });
});

describe.each(databases)('passkey challenges on %s', (dialect) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('nobody answered are swept every minute, not only when a new one is written', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = await startApp(dialect, { publicUrl: SITE });
    try {
      for (let i = 0; i < 3; i += 1) expect((await app.call('/user/api/startPasskeySignIn', {})).status).toBe(200);
      const [kept] = await app.services.db.selectFrom('webauthn_challenges').select('id').execute();
      await app.services.db
        .updateTable('webauthn_challenges')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '!=', kept.id)
        .execute();
      const sweep = vi.spyOn(app.services.passkeys, 'sweepExpiredChallenges');
      vi.advanceTimersByTime(60_000);
      expect(sweep).toHaveBeenCalledTimes(1);
      expect(await sweep.mock.results[0]?.value).toBe(2);
      const left = await app.services.db.selectFrom('webauthn_challenges').select('id').execute();
      expect(left).toEqual([{ id: kept.id }]);
    } finally {
      await app.close();
    }
  });
});
