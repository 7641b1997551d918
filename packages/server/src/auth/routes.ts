/**
 * One's passkeys and one's sessions (issue 38; docs/api.md): adding, listing and deleting passkeys, signing in
 * with one, and the list of where an account is signed in, each session ended from another one (or by an
 * administrator). Every change is audited (audit/auditing.ts). Issue 47: passkeys only with PUBLIC_URL (else every
 * passkey call answers 400 `passkeys_off`); adding or deleting one needs "confirm it's you" (auth/confirmation.ts);
 * a passkey counts as both factors only when it verified its user; starting a sign-in is limited per address.
 */
import {
  DeletePasskey,
  EndSession,
  FinishPasskeyRegistration,
  FinishPasskeySignIn,
  GetPasskeys,
  GetSessions,
  may,
  StartPasskeyRegistration,
  StartPasskeySignIn,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { ActivityStore } from '../activities/store.ts';
import type { UsersTable } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, requireSelfOr } from '../http/route.ts';
import { requireConfirmed } from './confirmation.ts';
import type { CounterStore } from './counter-store.ts';
import { PasskeyRefused, type PasskeyService } from './passkeys.ts';
import { callLimiter, PASSKEY_SIGN_IN_START_LIMIT } from './rate-limit.ts';
import type { SecondFactors } from './second-factor.ts';
import { type SessionStore, sessionUserOf } from './sessions.ts';
import type { SignInLimits } from './sign-in-limits.ts';
import { describeUserAgent } from './user-agent.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface AccountSecurityServices {
  activities: ActivityStore;
  counters: CounterStore;
  events: EventBus;
  passkeys: PasskeyService;
  secondFactors: SecondFactors;
  sessions: SessionStore;
  signInLimits: SignInLimits;
  /** A user's row (users/store.ts). */
  users: { row(id: number): Promise<Selectable<UsersTable> | undefined> };
}

/** The limits of password sign-ins apply to passkey sign-ins, counted per passkey and address. */
const passkeyAccount = (credentialId: string) => `#passkey:${credentialId.slice(0, 200)}`;

export function accountSecurityRoutes(app: FastifyInstance, services: AccountSecurityServices): void {
  const { passkeys, sessions, users, events, secondFactors } = services;
  const route = defineRoutes(app, sessions);
  const startLimit = callLimiter(services.counters, 'passkey-sign-in-start', PASSKEY_SIGN_IN_START_LIMIT);
  const stopSweep = passkeys.startChallengeSweep((error) =>
    app.log.warn({ err: error }, 'sweeping the expired passkey challenges failed'),
  );
  app.addHook('onClose', async () => stopSweep());

  /** Every passkey call, first: without PUBLIC_URL there is no relying party to trust. */
  const requirePasskeys = () => {
    if (!passkeys.enabled) throw badRequest('passkeys_off');
  };
  /** A refusal as its HTTP answer: a passkey nobody here knows is a failed sign-in (401), the rest a 400. */
  const refusal = (error: unknown) => {
    if (!(error instanceof PasskeyRefused)) return error;
    return error.code === 'passkey_unknown' ? unauthorized(error.code) : badRequest(error.code);
  };

  route(StartPasskeyRegistration, async ({ auth }) => {
    requirePasskeys();
    requireConfirmed(auth);
    const user = await users.row(auth.userId);
    if (!user) throw unauthorized('token_invalid');
    const displayName = user.display_name || `${user.first_name} ${user.last_name}`.trim() || user.identifier;
    const options = await passkeys.startRegistration(
      { id: user.id, identifier: user.identifier, displayName },
      await secondFactors.twoFactorsRequired(auth.userId, auth.role),
    );
    return { success: true, res: options };
  });

  route(FinishPasskeyRegistration, async ({ body, auth, req }) => {
    requirePasskeys();
    // Asked again here (before the challenge is spent): the page confirms and sends the same answer again.
    requireConfirmed(auth);
    try {
      const passkey = await passkeys.finishRegistration(auth.userId, body.credential as never, {
        name: body.name,
        userAgent: req.headers['user-agent'],
        requireUserVerification: await secondFactors.twoFactorsRequired(auth.userId, auth.role),
        sessionId: auth.sessionId,
      });
      // A second factor now: this session, if it waited for one, reaches everything; the user's other waiting
      // sessions end.
      if (passkey.userVerified) await secondFactors.factorSet(auth.userId, auth.sessionId);
      return { success: true, ...said('passkey_added'), res: passkey };
    } catch (error) {
      throw refusal(error);
    }
  });

  route(GetPasskeys, async ({ auth }) => {
    requirePasskeys();
    return { success: true, res: await passkeys.list(auth.userId) };
  });

  route(DeletePasskey, async ({ body, auth }) => {
    requirePasskeys();
    requireConfirmed(auth);
    const passkey = (await passkeys.list(auth.userId)).find((one) => one.id === body.id);
    if (!passkey) throw notFound('passkey_not_found');
    // The last second factor of a role that must have one stays (an administrator can reset it). A passkey that
    // never verified its user is no second factor: it may always go.
    if (
      passkey.userVerified &&
      (await secondFactors.requiredFor(auth.role)) &&
      !(await secondFactors.totp.isOn(auth.userId)) &&
      (await passkeys.countVerified(auth.userId)) <= 1
    )
      throw forbidden('passkey_required_by_policy');
    if (!(await passkeys.remove(auth.userId, body.id))) throw notFound('passkey_not_found');
    return { success: true, ...said('passkey_deleted') };
  });

  route(StartPasskeySignIn, async ({ req }) => {
    requirePasskeys();
    // Each start writes a challenge: one address starts a bounded number of them.
    await startLimit(req.ip);
    return { success: true, res: await passkeys.startSignIn() };
  });

  route(FinishPasskeySignIn, async ({ body, req }) => {
    requirePasskeys();
    const account = passkeyAccount(body.credential.id);
    await services.signInLimits.attempt(account, req.ip);
    let signedIn: { userId: number; userVerified: boolean };
    try {
      signedIn = await passkeys.finishSignIn(body.credential as never);
    } catch (error) {
      throw refusal(error);
    }
    const row = await users.row(signedIn.userId);
    if (!row) throw unauthorized('passkey_unknown');
    // Possession alone is one factor: an account that needs two signs in only with a passkey that verified its
    // user. Counted as a failure, as a wrong code would be.
    if (!signedIn.userVerified && (await secondFactors.twoFactorsRequired(row.id, row.role)))
      throw unauthorized('passkey_unverified');
    await services.signInLimits.succeeded(account, req.ip);
    if (row.disabled_at) throw forbidden('account_disabled');
    const authToken = await sessions.create(row.id, {
      method: 'passkey',
      userAgent: req.headers['user-agent'],
      address: req.ip,
    });
    await services.activities.record('login', { userId: row.id });
    return { success: true, ...said('login_ok'), user: { ...sessionUserOf(row), authToken } };
  });

  route(GetSessions, async ({ body, auth }) => {
    const userId = body.userId ?? auth.userId;
    requireSelfOr(auth, userId, 'users.manage');
    const rows = await sessions.listOf(userId);
    return {
      success: true,
      res: rows.map((row) => ({
        id: row.id,
        method: row.method,
        ...describeUserAgent(row.user_agent),
        userAgent: row.user_agent,
        address: row.address,
        createdAt: new Date(row.created_at).toISOString(),
        lastUsedAt: row.last_seen_at ? new Date(row.last_seen_at).toISOString() : null,
        current: row.id === auth.sessionId,
      })),
    };
  });

  route(EndSession, async ({ body, auth }) => {
    const owner = await sessions.ownerOf(body.sessionId);
    // Another user's session, for one who may not manage users, is as unknown as a session that does not exist.
    if (owner === undefined || (owner !== auth.userId && !may(auth, null, 'users.manage')))
      throw notFound('session_not_found');
    await sessions.revoke(body.sessionId);
    events.emit('sessionsEnded', { userId: owner, sessionId: body.sessionId, reason: 'ended' });
    return { success: true, ...said('session_ended') };
  });
}
