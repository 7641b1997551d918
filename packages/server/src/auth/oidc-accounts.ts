/**
 * Which account a provider identity opens (issues 38 and 47). An identity is joined to an account only by proof:
 * - its link (issuer + `sub`), made when the provider's first sign-in created the account, when the account's
 *   owner linked it from /account (signed in with its own password and factor, then "Link {provider}"), or by an
 *   administrator (from a pending sign-in);
 * - never by an email alone: a provider sign-in that meets an account with the same login and no link is
 *   refused (`link_required`) and kept as a pending sign-in for administrators (identity_requests), unless the
 *   organisation opted in with OIDC_LINK_BY_EMAIL (never for an administrator's account, nor for an identity the
 *   role map makes an administrator). Such a link makes the provider the account's way in: its password,
 *   second factors and sessions, which whoever made the account may know, are replaced or ended.
 * Every link, unlink and dismissal is in the audit log.
 */
import { randomBytes } from 'node:crypto';
import type { AuditAction, Role } from '@talkgroup/protocol';
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { AuditStore } from '../audit/store.ts';
import type { OidcConfig } from '../config/config.ts';
import type { Db, UsersTable } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { markConfirmed } from './confirmation.ts';
import { type OidcClaims, roleOf, SsoFailure } from './oidc.ts';
import { hashPassword } from './passwords.ts';

type UserRow = Selectable<UsersTable>;

/** What this part uses of the services (app.ts hands them over). */
export interface OidcAccountServices {
  audit: AuditStore;
  db: Db;
  events: EventBus;
  /** Ends a user's sessions (auth/sessions.ts). */
  sessions: { revokeAll(userId: number): Promise<number> };
  /** Removes a user's TOTP and passkeys (auth/second-factor.ts). */
  secondFactors: { reset(userId: number): Promise<void> };
  /** A user's row by id or by identifier, a new account, a new role, a new password (users/store.ts). */
  users: {
    row(id: number): Promise<UserRow | undefined>;
    rowByIdentifier(identifier: string): Promise<UserRow | undefined>;
    create(user: {
      firstName: string;
      lastName: string;
      identifier: string;
      password: string;
      passwordHash?: string;
      role: Role;
    }): Promise<number>;
    changeRole(id: number, role: Role): Promise<boolean>;
    setPasswordHash(id: number, passwordHash: string): Promise<void>;
  };
}

/** Who did it and from where, for the audit log. */
export interface AuditContext {
  actorId: number;
  address: string;
  requestId: string;
}

export const auditContextOf = (req: FastifyRequest, actorId: number): AuditContext => ({
  actorId,
  address: req.ip,
  requestId: String(req.id),
});

/** A password nobody knows: the account is reached through the provider (an administrator may give one). */
const unknownPasswordHash = () => hashPassword(randomBytes(24).toString('base64url'));

const displayName = (claims: OidcClaims) =>
  [claims.givenName, claims.familyName].filter(Boolean).join(' ') || claims.name || claims.email || claims.sub;

export function oidcAccounts(config: OidcConfig, services: OidcAccountServices) {
  const { db, users, audit, events } = services;

  async function audited(
    context: AuditContext,
    user: { id: number; identifier: string },
    action: AuditAction,
    changes: Record<string, { before: unknown; after: unknown }>,
  ) {
    await audit.write({
      ...context,
      action,
      targetType: 'user',
      targetId: user.id,
      targetName: user.identifier,
      changes,
    });
  }

  /** The identity's link at this provider, if any (user_id null: its account was deleted). */
  const linkOf = (subject: string) =>
    db
      .selectFrom('identity_links')
      .select(['id', 'user_id'])
      .where('issuer', '=', config.issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();

  /** The subject an account is linked to at this provider, if any. */
  async function linkedSubject(userId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('identity_links')
      .select('subject')
      .where('issuer', '=', config.issuer)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.subject;
  }

  /** Joins the identity to the account (its link row is reused when its former account was deleted). */
  async function link(subject: string, email: string | null, userId: number): Promise<void> {
    const now = new Date().toISOString();
    const existing = await linkOf(subject);
    if (existing) {
      await db
        .updateTable('identity_links')
        .set({ user_id: userId, email, created_at: now })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await db
        .insertInto('identity_links')
        .values({ issuer: config.issuer, subject, user_id: userId, email, created_at: now, last_used_at: null })
        .execute();
    }
    await db
      .deleteFrom('identity_requests')
      .where('issuer', '=', config.issuer)
      .where('subject', '=', subject)
      .execute();
  }

  /** The refused identity, kept for administrators (one row per identity, its last attempt's time and words). */
  async function keepRequest(claims: OidcClaims & { email: string }, account: UserRow): Promise<void> {
    const now = new Date().toISOString();
    const values = { email: claims.email, name: displayName(claims).slice(0, 200), user_id: account.id };
    await db
      .insertInto('identity_requests')
      .values({ issuer: config.issuer, subject: claims.sub, ...values, created_at: now, last_seen_at: now })
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doUpdateSet({ ...values, last_seen_at: now }))
      .execute();
  }

  /** OIDC_LINK_BY_EMAIL: whether this identity may be joined to this account on the provider's word alone. */
  function mayLinkByEmail(claims: OidcClaims, account: UserRow, mappedRole: Role | undefined): boolean {
    return config.linkByEmail && claims.emailVerified && account.role !== 'admin' && mappedRole !== 'admin';
  }

  /** A link made on the provider's word: the account's other ways in, which someone else may know, go. */
  async function linkByEmail(claims: OidcClaims & { email: string }, account: UserRow, context: AuditContext) {
    await link(claims.sub, claims.email, account.id);
    await users.setPasswordHash(account.id, await unknownPasswordHash());
    await services.secondFactors.reset(account.id);
    const ended = await services.sessions.revokeAll(account.id);
    if (ended > 0) events.emit('sessionsEnded', { userId: account.id, reason: 'password' });
    await audited(context, account, 'user.sso_link', {
      provider: { before: null, after: config.issuer },
      via: { before: null, after: 'email' },
    });
  }

  async function createAccount(claims: OidcClaims & { email: string }, role: Role, req: FastifyRequest) {
    const firstName = claims.givenName ?? claims.name?.split(' ')[0] ?? claims.email.split('@')[0] ?? '';
    const lastName = claims.familyName ?? (claims.givenName ? '' : claims.name?.split(' ').slice(1).join(' ')) ?? '';
    const id = await users.create({
      firstName: firstName.slice(0, 100),
      lastName: lastName.slice(0, 100),
      identifier: claims.email,
      password: '',
      passwordHash: await unknownPasswordHash(),
      role,
    });
    events.emit('usersChanged', {});
    const row = await users.row(id);
    if (!row) throw new SsoFailure('failed', 'the new account is gone');
    await link(claims.sub, claims.email, id);
    // Written as the user's own action: the provider, not an administrator, made the account.
    await audited(auditContextOf(req, id), row, 'user.sso_create', {
      provider: { before: null, after: config.issuer },
      role: { before: null, after: role },
    });
    return row;
  }

  /** The role follows the provider's groups at every sign-in (the last administrator is never demoted). */
  async function followGroups(row: UserRow, mappedRole: Role, req: FastifyRequest): Promise<UserRow> {
    if (mappedRole === row.role) return row;
    const before = row.role;
    if (!(await users.changeRole(row.id, mappedRole))) {
      req.log.warn(`sso: ${row.identifier} keeps the role ${before}: the last administrator is not demoted`);
      return row;
    }
    await audited(auditContextOf(req, row.id), row, 'user.sso_role', { role: { before, after: mappedRole } });
    events.emit('rightsChanged', { userIds: [row.id] });
    events.emit('usersChanged', {});
    return (await users.row(row.id)) ?? row;
  }

  /** The session of a link or a confirmation, still alive, and its user. */
  async function sessionUser(sessionId: number | null): Promise<UserRow> {
    const session =
      sessionId === null
        ? undefined
        : await db
            .selectFrom('sessions')
            .select('user_id')
            .where('id', '=', sessionId)
            .where('expires_at', '>', new Date().toISOString())
            .executeTakeFirst();
    const row = session ? await users.row(session.user_id) : undefined;
    if (!row) throw new SsoFailure('session_gone', `session ${sessionId}`);
    if (row.disabled_at) throw new SsoFailure('account_disabled', `${row.identifier} is disabled`);
    return row;
  }

  return {
    linkedSubject,

    /** The account a provider sign-in opens: linked, made now from the claims, or refused. */
    async signIn(claims: OidcClaims, req: FastifyRequest): Promise<UserRow> {
      const mappedRole: Role | undefined = config.roleClaim ? roleOf(config, claims.groups) : undefined;
      const existingLink = await linkOf(claims.sub);
      let row = existingLink?.user_id ? await users.row(existingLink.user_id) : undefined;
      if (!row) {
        if (!claims.email) throw new SsoFailure('no_email', `subject ${claims.sub}`);
        const email = claims.email;
        const withEmail = { ...claims, email };
        const account = await users.rowByIdentifier(email);
        if (account) {
          if (!mayLinkByEmail(claims, account, mappedRole) || (await linkedSubject(account.id))) {
            // Nobody proved this account is theirs: the owner links it from /account, or an administrator does.
            await keepRequest(withEmail, account);
            throw new SsoFailure('link_required', `${email} is an account not linked to subject ${claims.sub}`);
          }
          await linkByEmail(withEmail, account, auditContextOf(req, account.id));
          row = account;
        } else {
          // A deleted account stays deleted: the provider's yes does not make it again.
          if (existingLink) throw new SsoFailure('account_deleted', `subject ${claims.sub}`);
          row = await createAccount(withEmail, mappedRole ?? 'member', req);
        }
      }
      await db
        .updateTable('identity_links')
        .set({ last_used_at: new Date().toISOString(), ...(claims.email ? { email: claims.email } : {}) })
        .where('issuer', '=', config.issuer)
        .where('subject', '=', claims.sub)
        .execute();
      // The provider's yes opens nothing for an account an administrator turned off (its link stays).
      if (row.disabled_at) throw new SsoFailure('account_disabled', `${row.identifier} is disabled`);
      return mappedRole ? followGroups(row, mappedRole, req) : row;
    },

    /** The owner of a signed-in session links the provider to its account (it confirmed it is them before). */
    async linkToSession(claims: OidcClaims, sessionId: number | null, req: FastifyRequest): Promise<void> {
      const row = await sessionUser(sessionId);
      const existing = await linkOf(claims.sub);
      if (existing?.user_id === row.id) return;
      if (existing?.user_id) throw new SsoFailure('already_linked', `subject ${claims.sub} opens another account`);
      const other = await linkedSubject(row.id);
      if (other) throw new SsoFailure('account_has_link', `${row.identifier} is linked to subject ${other}`);
      await link(claims.sub, claims.email ?? null, row.id);
      await audited(auditContextOf(req, row.id), row, 'user.sso_link', {
        provider: { before: null, after: config.issuer },
        via: { before: null, after: 'owner' },
      });
    },

    /** A single sign-on user proved it is them at the provider again: the session is confirmed (5 minutes). */
    async confirmSession(claims: OidcClaims, sessionId: number | null): Promise<void> {
      const row = await sessionUser(sessionId);
      const existing = await linkOf(claims.sub);
      if (existing?.user_id !== row.id) throw new SsoFailure('not_linked', `subject ${claims.sub} is not ${row.id}`);
      await markConfirmed(db, sessionId as number);
    },

    /** An administrator joins a pending sign-in's identity to the account it met. */
    async linkRequest(requestId: number, context: AuditContext): Promise<'linked' | 'unknown' | 'taken'> {
      const request = await db
        .selectFrom('identity_requests')
        .selectAll()
        .where('id', '=', requestId)
        .where('issuer', '=', config.issuer)
        .executeTakeFirst();
      const account = request ? await users.row(request.user_id) : undefined;
      if (!request || !account) return 'unknown';
      const existing = await linkOf(request.subject);
      if ((existing?.user_id && existing.user_id !== account.id) || (await linkedSubject(account.id))) return 'taken';
      await link(request.subject, request.email, account.id);
      await audited(context, account, 'user.sso_link', {
        provider: { before: null, after: config.issuer },
        via: { before: null, after: 'administrator' },
        email: { before: null, after: request.email },
      });
      return 'linked';
    },
  };
}

export type OidcAccounts = ReturnType<typeof oidcAccounts>;
