/**
 * Single sign-on's addresses and calls (issue 38; docs/api.md, "Single sign-on"):
 * - GET /auth/oidc/start: to the provider, with a new state (its cookie) and PKCE challenge.
 * - GET /auth/oidc/callback: back from it; the account is found by issuer + sub, or linked by a verified email,
 *   or created from the claims; its role follows OIDC_ROLE_CLAIM / OIDC_ROLE_MAP. Lands on /signin#sso=<code>,
 *   or /signin?sso_error=<code> (a sentence on the page, never a stack).
 * - POST /user/api/finishOidcSignIn { code }: the code for the session, answered as /user/api/login is.
 * - POST /user/api/getSignInOptions: what /signin offers.
 */
import { randomBytes } from 'node:crypto';
import { FinishOidcSignIn, GetSignInOptions, type Role } from '@talkgroup/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { ActivityStore } from '../activities/store.ts';
import type { AuditStore } from '../audit/store.ts';
import type { Config, OidcConfig } from '../config.ts';
import type { Db, UsersTable } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { CounterStore } from './counter-store.ts';
import { OIDC_STATE_TTL_MS, type OidcClaims, oidcClient, roleOf, SsoFailure } from './oidc.ts';
import { hashPassword } from './passwords.ts';
import { type SessionStore, sessionUserOf } from './sessions.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface OidcRoutesServices {
  activities: ActivityStore;
  audit: AuditStore;
  config: Config;
  counters: CounterStore;
  db: Db;
  events: EventBus;
  sessions: SessionStore;
  /** A user's row by id or by identifier, a new account, a new role (users/store.ts). */
  users: {
    row(id: number): Promise<Selectable<UsersTable> | undefined>;
    rowByIdentifier(identifier: string): Promise<Selectable<UsersTable> | undefined>;
    create(user: NewAccount): Promise<number>;
    changeRole(id: number, role: Role): Promise<boolean>;
  };
}

/** An account that a first SSO sign-in makes (users/store.ts: NewUser). */
interface NewAccount {
  firstName: string;
  lastName: string;
  identifier: string;
  password: string;
  passwordHash?: string;
  role: Role;
}

const STATE_COOKIE = 'tg_oidc_state';
const COOKIE_PATH = '/auth/oidc';
/** Sign-ins one address may start per minute (a whole site behind one NAT starting at 9 o'clock fits). */
const SSO_STARTS_PER_MINUTE = 120;

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

export function oidcRoutes(app: FastifyInstance, services: OidcRoutesServices): void {
  const { config, users, sessions, activities, events, audit, db } = services;
  const route = defineRoutes(app, sessions);

  route(GetSignInOptions, async () => ({
    success: true,
    sso: config.oidc ? { name: config.oidc.name } : null,
    passwordSignIn: !config.oidc?.only,
  }));

  const oidc = config.oidc;
  const provider = oidc ? oidcClient(oidc, db) : undefined;

  route(FinishOidcSignIn, async ({ body, req }) => {
    const userId = provider ? await provider.redeemCode(body.code) : undefined;
    const row = userId === undefined ? undefined : await users.row(userId);
    if (!row) throw unauthorized('sso_code_invalid');
    // Disabled between the provider's yes and this exchange.
    if (row.disabled_at) throw forbidden('account_disabled');
    const authToken = await sessions.create(row.id, {
      method: 'sso',
      userAgent: req.headers['user-agent'],
      address: req.ip,
    });
    await activities.record('login', { userId: row.id });
    return { success: true, ...said('login_ok'), user: { ...sessionUserOf(row), authToken } };
  });

  if (!oidc || !provider) return;
  const secure = config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  const stateCookie = (value: string, maxAgeSeconds: number) =>
    `${STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;

  function failed(req: FastifyRequest, reply: FastifyReply, failure: unknown) {
    const code = failure instanceof SsoFailure ? failure.code : 'failed';
    const detail = failure instanceof SsoFailure ? failure.detail : failure;
    req.log.warn({ err: detail instanceof Error ? detail : undefined, detail: String(detail ?? '') }, `sso: ${code}`);
    return reply
      .header('set-cookie', stateCookie('', 0))
      .header('cache-control', 'no-store')
      .redirect(`/signin?sso_error=${code}`, 303);
  }

  app.get(`${COOKIE_PATH}/start`, { schema: { hide: true } }, async (req, reply) => {
    try {
      // Each start keeps a row for 10 minutes: one address starts a bounded number of them.
      if ((await services.counters.increment(`rate:sso-start:${req.ip}`, 60_000)) > SSO_STARTS_PER_MINUTE)
        throw new SsoFailure('too_many', req.ip);
      const { url, state } = await provider.start();
      return reply
        .header('set-cookie', stateCookie(state, OIDC_STATE_TTL_MS / 1000))
        .header('cache-control', 'no-store')
        .redirect(url, 303);
    } catch (failure) {
      return failed(req, reply, failure);
    }
  });

  app.get(`${COOKIE_PATH}/callback`, { schema: { hide: true } }, async (req, reply) => {
    try {
      const query = new URLSearchParams(req.url.split('?')[1] ?? '');
      const claims = await provider.finish(query, cookieOf(req, STATE_COOKIE));
      const user = await accountOf(oidc, claims, req);
      const code = await provider.issueCode(user.id);
      return reply
        .header('set-cookie', stateCookie('', 0))
        .header('cache-control', 'no-store')
        .redirect(`/signin#sso=${code}`, 303);
    } catch (failure) {
      return failed(req, reply, failure);
    }
  });

  /** Written as the user's own action: the provider, not an administrator, made the change. */
  async function audited(
    req: FastifyRequest,
    user: { id: number; name: string },
    action: string,
    changes: Record<string, { before: unknown; after: unknown }>,
  ) {
    await audit.write({
      actorId: user.id,
      action,
      targetType: 'user',
      targetId: user.id,
      targetName: user.name,
      changes,
      address: req.ip,
      requestId: String(req.id),
    });
  }

  /** The subject an account is linked to at this provider, if any. */
  async function linkedSubject(config: OidcConfig, userId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('identity_links')
      .select('subject')
      .where('issuer', '=', config.issuer)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.subject;
  }

  /** The account of the provider's subject: linked, linked now by a verified email, or created from the claims. */
  async function accountOf(
    config: OidcConfig,
    claims: OidcClaims,
    req: FastifyRequest,
  ): Promise<Selectable<UsersTable>> {
    const now = new Date().toISOString();
    const mappedRole: Role | undefined = config.roleClaim ? roleOf(config, claims.groups) : undefined;
    const link = await db
      .selectFrom('identity_links')
      .select(['id', 'user_id'])
      .where('issuer', '=', config.issuer)
      .where('subject', '=', claims.sub)
      .executeTakeFirst();
    let row: Selectable<UsersTable> | undefined;
    if (link) {
      row = link.user_id === null ? undefined : await users.row(link.user_id);
      if (!row) {
        // The link outlives a deleted account: the provider's yes no longer opens anything, unless an
        // administrator made the account again (its login the email the provider vouches for).
        const remade = claims.email && claims.emailVerified ? await users.rowByIdentifier(claims.email) : undefined;
        if (!remade || (await linkedSubject(config, remade.id)))
          throw new SsoFailure('account_deleted', `subject ${claims.sub}`);
        await db.updateTable('identity_links').set({ user_id: remade.id }).where('id', '=', link.id).execute();
        await audited(req, { id: remade.id, name: remade.identifier }, 'user.sso_link', {
          provider: { before: null, after: config.issuer },
        });
        row = remade;
      }
    } else {
      if (!claims.email) throw new SsoFailure('no_email', `subject ${claims.sub}`);
      row = await users.rowByIdentifier(claims.email);
      if (row) {
        // An account made before single sign-on: taken over only on the provider's word that the email is theirs.
        if (!claims.emailVerified) throw new SsoFailure('email_unverified', claims.email);
        const other = await linkedSubject(config, row.id);
        if (other) throw new SsoFailure('already_linked', `${claims.email} is linked to subject ${other}`);
        await audited(req, { id: row.id, name: row.identifier }, 'user.sso_link', {
          provider: { before: null, after: config.issuer },
        });
      } else {
        const firstName = claims.givenName ?? claims.name?.split(' ')[0] ?? claims.email.split('@')[0] ?? '';
        const lastName =
          claims.familyName ?? (claims.givenName ? '' : claims.name?.split(' ').slice(1).join(' ')) ?? '';
        const role = mappedRole ?? 'member';
        const id = await users.create({
          firstName: firstName.slice(0, 100),
          lastName: lastName.slice(0, 100),
          identifier: claims.email,
          // No password: one nobody knows (an administrator may give one later).
          password: '',
          passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
          role,
        });
        events.emit('usersChanged', {});
        row = await users.row(id);
        if (!row) throw new SsoFailure('failed', 'the new account is gone');
        await audited(req, { id, name: row.identifier }, 'user.sso_create', {
          provider: { before: null, after: config.issuer },
          role: { before: null, after: role },
        });
      }
      await db
        .insertInto('identity_links')
        .values({
          issuer: config.issuer,
          subject: claims.sub,
          user_id: row.id,
          email: claims.email,
          created_at: now,
          last_used_at: null,
        })
        .execute();
    }
    await db
      .updateTable('identity_links')
      .set({ last_used_at: now, ...(claims.email ? { email: claims.email } : {}) })
      .where('issuer', '=', config.issuer)
      .where('subject', '=', claims.sub)
      .execute();
    // The provider's yes opens nothing for an account an administrator turned off (its link stays).
    if (row.disabled_at) throw new SsoFailure('account_disabled', `${row.identifier} is disabled`);
    // The role follows the provider's groups at every sign-in (the last administrator is never demoted).
    if (mappedRole && mappedRole !== row.role) {
      const before = row.role;
      if (await users.changeRole(row.id, mappedRole)) {
        await audited(req, { id: row.id, name: row.identifier }, 'user.sso_role', {
          role: { before, after: mappedRole },
        });
        events.emit('rightsChanged', { userIds: [row.id] });
        events.emit('usersChanged', {});
        row = (await users.row(row.id)) ?? row;
      } else {
        req.log.warn(`sso: ${row.identifier} keeps the role ${before}: the last administrator is not demoted`);
      }
    }
    return row;
  }
}

/** The line printed at start: what to register at the provider. */
export function oidcStartLine(oidc: OidcConfig | undefined): string | undefined {
  return oidc
    ? `single sign-on with ${oidc.name} (${oidc.issuer}); register this redirect URI at the provider: ${oidc.redirectUri}`
    : undefined;
}
