/**
 * One's passkeys and one's sessions (issue 38; docs/api.md): adding, listing and deleting passkeys, signing in
 * with one, and the list of where an account is signed in, each session ended from another one (or by an
 * administrator). Every change is audited (audit/auditing.ts).
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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { ActivityStore } from '../activities/store.ts';
import type { Config } from '../config.ts';
import type { UsersTable } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, requireSelfOr } from '../http/route.ts';
import { PasskeyRefused, type PasskeyService, relyingParty } from './passkeys.ts';
import type { SecondFactors } from './second-factor.ts';
import { type SessionStore, sessionUserOf } from './sessions.ts';
import type { SignInLimits } from './sign-in-limits.ts';
import { describeUserAgent } from './user-agent.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface AccountSecurityServices {
  activities: ActivityStore;
  config: Config;
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
  const { passkeys, sessions, users, config, events } = services;
  const route = defineRoutes(app, sessions);
  const site = (req: FastifyRequest) => relyingParty(config.publicUrl, req);

  /** A refusal as its HTTP answer: a passkey nobody here knows is a failed sign-in (401), the rest a 400. */
  const refusal = (error: unknown) => {
    if (!(error instanceof PasskeyRefused)) return error;
    return error.code === 'passkey_unknown' ? unauthorized(error.code) : badRequest(error.code);
  };

  route(StartPasskeyRegistration, async ({ auth, req }) => {
    const user = await users.row(auth.userId);
    if (!user) throw unauthorized('token_invalid');
    const displayName = user.display_name || `${user.first_name} ${user.last_name}`.trim() || user.identifier;
    const options = await passkeys.startRegistration(site(req), {
      id: user.id,
      identifier: user.identifier,
      displayName,
    });
    return { success: true, res: options };
  });

  route(FinishPasskeyRegistration, async ({ body, auth, req }) => {
    try {
      const passkey = await passkeys.finishRegistration(
        site(req),
        auth.userId,
        body.credential as never,
        body.name,
        req.headers['user-agent'],
      );
      // A session that waited for a second factor (the security policy) reaches everything again.
      await services.secondFactors.factorSet(auth.userId);
      return { success: true, ...said('passkey_added'), res: passkey };
    } catch (error) {
      throw refusal(error);
    }
  });

  route(GetPasskeys, async ({ auth }) => ({ success: true, res: await passkeys.list(auth.userId) }));

  route(DeletePasskey, async ({ body, auth }) => {
    // The last second factor of a role that must have one stays (an administrator can reset it).
    const { secondFactors } = services;
    if (
      (await secondFactors.requiredFor(auth.role)) &&
      !(await secondFactors.totp.isOn(auth.userId)) &&
      (await passkeys.count(auth.userId)) <= 1 &&
      (await passkeys.list(auth.userId)).some((passkey) => passkey.id === body.id)
    )
      throw forbidden('passkey_required_by_policy');
    if (!(await passkeys.remove(auth.userId, body.id))) throw notFound('passkey_not_found');
    return { success: true, ...said('passkey_deleted') };
  });

  route(StartPasskeySignIn, async ({ req }) => ({ success: true, res: await passkeys.startSignIn(site(req)) }));

  route(FinishPasskeySignIn, async ({ body, req }) => {
    const account = passkeyAccount(body.credential.id);
    await services.signInLimits.attempt(account, req.ip);
    let userId: number;
    try {
      userId = await passkeys.finishSignIn(site(req), body.credential as never);
    } catch (error) {
      throw refusal(error);
    }
    const row = await users.row(userId);
    if (!row) throw unauthorized('passkey_unknown');
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
