/**
 * Passkeys (issue 38): WebAuthn credentials through @simplewebauthn/server. The relying party is the host of
 * PUBLIC_URL; without it passkeys are off (issue 47): every passkey call answers 400 `passkeys_off` and a passkey
 * counts as no factor. A relying party read from each request's Host is whatever name the client sends: the origin
 * check would compare the browser's origin with a value chosen by the same request, and passkeys would belong to
 * any name that reaches the server (another one, a proxy passing Host through).
 * Every challenge is random, kept in the database, good once and for 5 minutes: a registration's for the account
 * that asked, a sign-in's for nobody yet. Expired ones are swept on a schedule (`startChallengeSweep`).
 * Passkeys are discoverable (resident keys), so a sign-in names no login: the browser offers the site's passkeys
 * and the answer says which one, hence whose account.
 * User verification (issue 47): a passkey counts as both factors only when the authenticator verified its user
 * (PIN, fingerprint, face: the UV flag). Whether an account needs that is the caller's question
 * (auth/second-factor.ts, `twoFactorsRequired`): such an account registers with user verification required
 * and is refused a sign-in without it; other accounts keep "preferred" (a security key without a PIN still signs
 * them in, as a password alone would). Each passkey remembers whether it ever verified its user (`user_verified`).
 */
import { createHmac } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';
import { describeUserAgent } from './user-agent.ts';

/** How long a challenge (and the browser's prompt) waits. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'Talkgroup';
/**
 * EdDSA, ES256 and RS256: what authenticators offer today. The library would put ML-DSA-44 first where the
 * runtime has it (Node 24, as an experimental feature): not before it is stable there.
 */
const ALGORITHMS = [-8, -7, -257];

type WebAuthn = typeof import('@simplewebauthn/server');
/**
 * @simplewebauthn/server is loaded on the first passkey call (Node keeps a module imported once): with its ASN.1,
 * X.509 and CBOR libraries it is about 8 MB of the heap, which a server whose users never use passkeys never holds
 * (docs/memory.md).
 */
const library = (): Promise<WebAuthn> => import('@simplewebauthn/server');

/** Who the passkeys belong to: the host of PUBLIC_URL, and the origin the browser must report. */
function relyingParty(publicUrl: string): { rpID: string; origin: string } {
  return { rpID: new URL(publicUrl).hostname, origin: publicUrl };
}

/** The start line of a server without PUBLIC_URL, where the other start lines are printed (main.ts). */
export function passkeysStartLine(publicUrl: string | undefined): string | undefined {
  return publicUrl
    ? undefined
    : 'passkeys are off: set PUBLIC_URL to the address users reach (https://talk.example.org) to turn them on';
}

/** A refusal the routes turn into a 400 or 401 with a sentence. */
export class PasskeyRefused extends Error {
  readonly code: 'passkey_invalid' | 'passkey_exists' | 'passkey_unknown' | 'passkey_verification_required';
  constructor(code: PasskeyRefused['code']) {
    super(code);
    this.code = code;
  }
}

/** How often expired challenges are swept: the table holds at most this much more than 5 minutes' worth. */
const SWEEP_EVERY_MS = 60_000;

export function passkeyService(db: Db, secret: Buffer, publicUrl: string | undefined) {
  const site = publicUrl ? relyingParty(publicUrl) : undefined;
  /** The relying party, for a ceremony: none without PUBLIC_URL (the routes refuse before that). */
  const siteOrRefuse = () => {
    if (!site) throw new Error('passkeys are off (PUBLIC_URL is unset)');
    return site;
  };

  /**
   * The WebAuthn user handle of an account: derived from the deployment's secret (no personal data, no row of
   * its own), the same for all of the account's passkeys.
   */
  const handleOf = (userId: number) =>
    new Uint8Array(createHmac('sha256', secret).update(`webauthn user ${userId}`).digest());

  async function keepChallenge(challenge: string, userId: number | null) {
    await db
      .insertInto('webauthn_challenges')
      .values({ challenge, user_id: userId, expires_at: new Date(Date.now() + CHALLENGE_TTL_MS).toISOString() })
      .execute();
  }

  /** True once for a live challenge handed to this user (null: a sign-in's); it is gone afterwards. */
  async function takeChallenge(challenge: string, userId: number | null): Promise<boolean> {
    let query = db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('expires_at', '>', new Date().toISOString());
    query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  const toPasskey = (row: {
    id: number;
    name: string;
    created_at: string;
    last_used_at: string | null;
    user_verified: number;
  }): Passkey => ({
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
    userVerified: row.user_verified === 1,
  });

  return {
    /** Passkeys are on: PUBLIC_URL names their relying party. */
    enabled: site !== undefined,

    async list(userId: number): Promise<Passkey[]> {
      const rows = await db
        .selectFrom('passkeys')
        .select(['id', 'name', 'created_at', 'last_used_at', 'user_verified'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map(toPasskey);
    },

    /** The user's passkeys that verified their user: the ones that are a second factor. */
    async countVerified(userId: number): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('user_verified', '=', 1)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /**
     * Options for navigator.credentials.create: a discoverable credential, none of the account's twice; user
     * verification required when the account needs two factors (finishRegistration checks it), else preferred.
     */
    async startRegistration(
      user: { id: number; identifier: string; displayName: string },
      requireUserVerification: boolean,
    ): Promise<Record<string, unknown>> {
      const existing = await db
        .selectFrom('passkeys')
        .select(['credential_id', 'transports'])
        .where('user_id', '=', user.id)
        .execute();
      const { generateRegistrationOptions } = await library();
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: siteOrRefuse().rpID,
        userName: user.identifier,
        userID: handleOf(user.id),
        userDisplayName: user.displayName,
        timeout: CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.credential_id,
          transports: JSON.parse(row.transports) as AuthenticatorTransport[],
        })),
        authenticatorSelection: {
          residentKey: 'required',
          userVerification: requireUserVerification ? 'required' : 'preferred',
        },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      await keepChallenge(options.challenge, user.id);
      return options as unknown as Record<string, unknown>;
    },

    /**
     * Keeps the passkey the authenticator made for a live challenge of this user. With `requireUserVerification`
     * (the account needs two factors), one that did not verify its user is refused: the options asked for it,
     * but a browser or an authenticator may answer without.
     */
    async finishRegistration(
      userId: number,
      credential: RegistrationResponseJSON,
      details: {
        name: string | undefined;
        userAgent: string | undefined;
        requireUserVerification: boolean;
        /** The session it is registered from (issue 69: disabling that device removes it). */
        sessionId: number;
      },
    ): Promise<Passkey> {
      const { rpID, origin } = siteOrRefuse();
      const { verifyRegistrationResponse } = await library();
      let verified: Awaited<ReturnType<WebAuthn['verifyRegistrationResponse']>>;
      try {
        verified = await verifyRegistrationResponse({
          response: credential,
          expectedChallenge: (challenge) => takeChallenge(challenge, userId),
          expectedOrigin: origin,
          expectedRPID: rpID,
          // Checked below, to say why.
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch {
        throw new PasskeyRefused('passkey_invalid');
      }
      if (!verified.verified) throw new PasskeyRefused('passkey_invalid');
      const { credential: made, userVerified } = verified.registrationInfo;
      if (details.requireUserVerification && !userVerified) throw new PasskeyRefused('passkey_verification_required');
      const taken = await db
        .selectFrom('passkeys')
        .select('id')
        .where('credential_id', '=', made.id)
        .executeTakeFirst();
      if (taken) throw new PasskeyRefused('passkey_exists');
      const { browser, system } = describeUserAgent(details.userAgent);
      const row = await db
        .insertInto('passkeys')
        .values({
          user_id: userId,
          credential_id: made.id,
          public_key: Buffer.from(made.publicKey).toString('base64url'),
          counter: made.counter,
          transports: JSON.stringify(made.transports ?? credential.response.transports ?? []),
          name: details.name?.trim() || [browser, system].filter(Boolean).join(' · ') || 'Passkey',
          created_at: new Date().toISOString(),
          user_verified: userVerified ? 1 : 0,
          session_id: details.sessionId,
        })
        .returning(['id', 'name', 'created_at', 'last_used_at', 'user_verified'])
        .executeTakeFirstOrThrow();
      return toPasskey(row);
    },

    /**
     * Options for navigator.credentials.get with no credential listed: the browser offers the site's passkeys.
     * Nobody is known yet, so user verification is preferred; finishSignIn says whether it happened.
     */
    async startSignIn(): Promise<Record<string, unknown>> {
      const { generateAuthenticationOptions } = await library();
      const options = await generateAuthenticationOptions({
        rpID: siteOrRefuse().rpID,
        userVerification: 'preferred',
        timeout: CHALLENGE_TTL_MS,
      });
      await keepChallenge(options.challenge, null);
      return options as unknown as Record<string, unknown>;
    },

    /**
     * The account whose passkey answered a live sign-in challenge, and whether the authenticator verified its
     * user this time; the counter and last use are updated (and the passkey marked as verifying, when it did).
     */
    async finishSignIn(credential: AuthenticationResponseJSON): Promise<{ userId: number; userVerified: boolean }> {
      const { rpID, origin } = siteOrRefuse();
      const row = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('credential_id', '=', credential.id)
        .executeTakeFirst();
      if (!row) throw new PasskeyRefused('passkey_unknown');
      // A handle that names another account: the answer was not made for this passkey's owner.
      const handle = Buffer.from(handleOf(row.user_id)).toString('base64url');
      if (credential.response.userHandle && credential.response.userHandle !== handle)
        throw new PasskeyRefused('passkey_invalid');
      const { verifyAuthenticationResponse } = await library();
      let verified: Awaited<ReturnType<WebAuthn['verifyAuthenticationResponse']>>;
      try {
        verified = await verifyAuthenticationResponse({
          response: credential,
          expectedChallenge: (challenge) => takeChallenge(challenge, null),
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: {
            id: row.credential_id,
            publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
            counter: Number(row.counter),
            transports: JSON.parse(row.transports) as AuthenticatorTransport[],
          },
          // The caller decides: only an account that needs two factors requires it.
          requireUserVerification: false,
        });
      } catch {
        // A counter that went back (a cloned authenticator) lands here too.
        throw new PasskeyRefused('passkey_invalid');
      }
      if (!verified.verified) throw new PasskeyRefused('passkey_invalid');
      const { newCounter, userVerified } = verified.authenticationInfo;
      await db
        .updateTable('passkeys')
        .set({
          counter: newCounter,
          last_used_at: new Date().toISOString(),
          // An authenticator that verifies its user now (a PIN set since) makes the passkey a second factor.
          ...(userVerified ? { user_verified: 1 } : {}),
        })
        .where('id', '=', row.id)
        .execute();
      return { userId: row.user_id, userVerified };
    },

    /** Deletes one of the user's passkeys; false when it has none of that id. */
    async remove(userId: number, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Every passkey of the user (an administrator resetting its second factor: a lost phone). */
    async removeAll(userId: number): Promise<number> {
      const result = await db.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Issue 69: the passkeys registered from this session (a lost or stolen phone's, whose session is disabled);
     * how many went. Those registered before migration 0047 know no session and stay.
     */
    async removeOfSession(sessionId: number): Promise<number> {
      const result = await db.deleteFrom('passkeys').where('session_id', '=', sessionId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Challenges nobody answered in time go (each start writes one; the index on expires_at serves this). */
    async sweepExpiredChallenges(): Promise<number> {
      const result = await db
        .deleteFrom('webauthn_challenges')
        .where('expires_at', '<=', new Date().toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Sweeps expired challenges every minute until the returned function is called (the app's close). */
    startChallengeSweep(onError: (error: unknown) => void): () => void {
      const every = setInterval(() => this.sweepExpiredChallenges().catch(onError), SWEEP_EVERY_MS);
      every.unref();
      return () => clearInterval(every);
    },
  };
}

export type PasskeyService = ReturnType<typeof passkeyService>;
