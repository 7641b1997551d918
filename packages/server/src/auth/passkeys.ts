/**
 * Passkeys (issue 38): WebAuthn credentials through @simplewebauthn/server. The relying party is the host of
 * PUBLIC_URL (unset: the request's own host and origin). Every challenge is random, kept in the database,
 * good once and for 5 minutes: a registration's for the account that asked, a sign-in's for nobody yet.
 * Passkeys are discoverable (resident keys), so a sign-in names no login: the browser offers the site's
 * passkeys and the answer says which one, hence whose account. User verification is preferred, not required
 * (a security key without a PIN still signs in); a passkey counts as both factors.
 */
import { createHmac } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '@talkgroup/protocol';
import type { FastifyRequest } from 'fastify';
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

/** Who the passkeys belong to: the site's host, and the origin the browser must report. */
export function relyingParty(publicUrl: string | undefined, req: Pick<FastifyRequest, 'protocol' | 'host'>) {
  const origin = publicUrl ?? `${req.protocol}://${req.host}`;
  return { rpID: new URL(origin).hostname, origin };
}

/** A refusal the routes turn into a 400 or 401 with a sentence. */
export class PasskeyRefused extends Error {
  readonly code: 'passkey_invalid' | 'passkey_exists' | 'passkey_unknown';
  constructor(code: PasskeyRefused['code']) {
    super(code);
    this.code = code;
  }
}

type Site = ReturnType<typeof relyingParty>;

export function passkeyService(db: Db, secret: Buffer) {
  /**
   * The WebAuthn user handle of an account: derived from the deployment's secret (no personal data, no row of
   * its own), the same for all of the account's passkeys.
   */
  const handleOf = (userId: number) =>
    new Uint8Array(createHmac('sha256', secret).update(`webauthn user ${userId}`).digest());

  async function keepChallenge(challenge: string, userId: number | null) {
    const now = Date.now();
    // Challenges nobody answered go as new ones come: the table holds at most 5 minutes' worth.
    await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', new Date(now).toISOString()).execute();
    await db
      .insertInto('webauthn_challenges')
      .values({ challenge, user_id: userId, expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString() })
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

  const toPasskey = (row: { id: number; name: string; created_at: string; last_used_at: string | null }): Passkey => ({
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  });

  return {
    async list(userId: number): Promise<Passkey[]> {
      const rows = await db
        .selectFrom('passkeys')
        .select(['id', 'name', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map(toPasskey);
    },

    async count(userId: number): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Options for navigator.credentials.create: a discoverable credential, none of the account's twice. */
    async startRegistration(
      site: Site,
      user: { id: number; identifier: string; displayName: string },
    ): Promise<Record<string, unknown>> {
      const existing = await db
        .selectFrom('passkeys')
        .select(['credential_id', 'transports'])
        .where('user_id', '=', user.id)
        .execute();
      const { generateRegistrationOptions } = await library();
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: site.rpID,
        userName: user.identifier,
        userID: handleOf(user.id),
        userDisplayName: user.displayName,
        timeout: CHALLENGE_TTL_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.credential_id,
          transports: JSON.parse(row.transports) as AuthenticatorTransport[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      await keepChallenge(options.challenge, user.id);
      return options as unknown as Record<string, unknown>;
    },

    async finishRegistration(
      site: Site,
      userId: number,
      credential: RegistrationResponseJSON,
      name: string | undefined,
      userAgent: string | undefined,
    ): Promise<Passkey> {
      const { verifyRegistrationResponse } = await library();
      let verified: Awaited<ReturnType<WebAuthn['verifyRegistrationResponse']>>;
      try {
        verified = await verifyRegistrationResponse({
          response: credential,
          expectedChallenge: (challenge) => takeChallenge(challenge, userId),
          expectedOrigin: site.origin,
          expectedRPID: site.rpID,
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch {
        throw new PasskeyRefused('passkey_invalid');
      }
      if (!verified.verified) throw new PasskeyRefused('passkey_invalid');
      const { credential: made } = verified.registrationInfo;
      const taken = await db
        .selectFrom('passkeys')
        .select('id')
        .where('credential_id', '=', made.id)
        .executeTakeFirst();
      if (taken) throw new PasskeyRefused('passkey_exists');
      const { browser, system } = describeUserAgent(userAgent);
      const row = await db
        .insertInto('passkeys')
        .values({
          user_id: userId,
          credential_id: made.id,
          public_key: Buffer.from(made.publicKey).toString('base64url'),
          counter: made.counter,
          transports: JSON.stringify(made.transports ?? credential.response.transports ?? []),
          name: name?.trim() || [browser, system].filter(Boolean).join(' · ') || 'Passkey',
          created_at: new Date().toISOString(),
        })
        .returning(['id', 'name', 'created_at', 'last_used_at'])
        .executeTakeFirstOrThrow();
      return toPasskey(row);
    },

    /** Options for navigator.credentials.get with no credential listed: the browser offers the site's passkeys. */
    async startSignIn(site: Site): Promise<Record<string, unknown>> {
      const { generateAuthenticationOptions } = await library();
      const options = await generateAuthenticationOptions({
        rpID: site.rpID,
        userVerification: 'preferred',
        timeout: CHALLENGE_TTL_MS,
      });
      await keepChallenge(options.challenge, null);
      return options as unknown as Record<string, unknown>;
    },

    /** The account whose passkey answered a live sign-in challenge; its counter and last use are updated. */
    async finishSignIn(site: Site, credential: AuthenticationResponseJSON): Promise<number> {
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
          expectedOrigin: site.origin,
          expectedRPID: site.rpID,
          credential: {
            id: row.credential_id,
            publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
            counter: Number(row.counter),
            transports: JSON.parse(row.transports) as AuthenticatorTransport[],
          },
          requireUserVerification: false,
        });
      } catch {
        // A counter that went back (a cloned authenticator) lands here too.
        throw new PasskeyRefused('passkey_invalid');
      }
      if (!verified.verified) throw new PasskeyRefused('passkey_invalid');
      await db
        .updateTable('passkeys')
        .set({ counter: verified.authenticationInfo.newCounter, last_used_at: new Date().toISOString() })
        .where('id', '=', row.id)
        .execute();
      return row.user_id;
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
  };
}

export type PasskeyService = ReturnType<typeof passkeyService>;
