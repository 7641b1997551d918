/**
 * Provider identities of accounts (issue 47; docs/api.md, "Single sign-on"): the links one sees and removes on
 * /account (an administrator: anyone's), and the pending sign-ins (an identity refused because an account not
 * linked to it has its email) that administrators link or dismiss on /settings. Every change is audited.
 */
import {
  type AuditAction,
  DismissIdentityRequest,
  GetIdentityLinks,
  GetIdentityRequests,
  LinkIdentityRequest,
  may,
  UnlinkIdentity,
} from '@talkgroup/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { AuditStore } from '../audit/store.ts';
import type { Config } from '../config/config.ts';
import type { Db, UsersTable } from '../db/schema.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, requireSelfOr } from '../http/route.ts';
import { requireConfirmed } from './confirmation.ts';
import { auditContextOf, type OidcAccountServices, oidcAccounts } from './oidc-accounts.ts';
import type { SessionStore } from './sessions.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface IdentityRoutesServices extends OidcAccountServices {
  audit: AuditStore;
  config: Config;
  db: Db;
  sessions: SessionStore;
  users: OidcAccountServices['users'] & { row(id: number): Promise<Selectable<UsersTable> | undefined> };
}

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);
const nameOf = (row: { display_name: string; first_name: string; last_name: string; identifier: string }) =>
  row.display_name || `${row.first_name} ${row.last_name}`.trim() || row.identifier;

export function identityRoutes(app: FastifyInstance, services: IdentityRoutesServices): void {
  const { db, config, audit } = services;
  const route = defineRoutes(app, services.sessions);
  const accounts = config.oidc ? oidcAccounts(config.oidc, services) : undefined;
  /** The provider's name for an issuer: OIDC_NAME for the one configured, else the issuer's host. */
  const providerName = (issuer: string) =>
    issuer === config.oidc?.issuer ? config.oidc.name : (URL.parse(issuer)?.host ?? issuer);
  /** A change to a user's identities, in the audit log under the one who made it. */
  const audited = (
    req: FastifyRequest,
    actorId: number,
    target: { userId: number; identifier: string },
    action: AuditAction,
    changes: Record<string, { before: unknown; after: unknown }>,
  ) =>
    audit.write({
      ...auditContextOf(req, actorId),
      action,
      targetType: 'user',
      targetId: target.userId,
      targetName: target.identifier,
      changes,
    });

  route(GetIdentityLinks, async ({ body, auth }) => {
    const userId = body.userId ?? auth.userId;
    requireSelfOr(auth, userId, 'users.manage');
    const rows = await db
      .selectFrom('identity_links')
      .select(['id', 'issuer', 'email', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return {
      success: true,
      res: rows.map((row) => ({
        id: row.id,
        provider: providerName(row.issuer),
        email: row.email,
        createdAt: iso(row.created_at) ?? '',
        lastUsedAt: iso(row.last_used_at),
      })),
    };
  });

  route(UnlinkIdentity, async ({ body, auth, req }) => {
    const link = await db
      .selectFrom('identity_links')
      .innerJoin('users', 'users.id', 'identity_links.user_id')
      .select(['identity_links.id as id', 'identity_links.issuer as issuer', 'users.id as userId', 'users.identifier'])
      .where('identity_links.id', '=', body.linkId)
      .executeTakeFirst();
    const own = link?.userId === auth.userId;
    // Another user's link, for one who may not manage users, is as unknown as a link that does not exist.
    if (!link || (!own && !may(auth, null, 'users.manage'))) throw notFound('identity_link_not_found');
    if (own) {
      requireConfirmed(auth);
      // Without passwords, the link is the only way in: only an administrator removes it.
      if (config.oidc?.only && auth.role !== 'admin') throw forbidden('unlink_sso_only');
    }
    await db.deleteFrom('identity_links').where('id', '=', link.id).execute();
    await audited(req, auth.userId, link, 'user.sso_unlink', { provider: { before: link.issuer, after: null } });
    return { success: true, ...said('identity_unlinked') };
  });

  route(GetIdentityRequests, async () => {
    const rows = await db
      .selectFrom('identity_requests')
      .innerJoin('users', 'users.id', 'identity_requests.user_id')
      .select([
        'identity_requests.id as id',
        'identity_requests.issuer as issuer',
        'identity_requests.email as email',
        'identity_requests.name as name',
        'identity_requests.created_at as createdAt',
        'identity_requests.last_seen_at as lastSeenAt',
        'users.id as userId',
        'users.identifier as identifier',
        'users.display_name as display_name',
        'users.first_name as first_name',
        'users.last_name as last_name',
        'users.role as role',
      ])
      .orderBy('identity_requests.last_seen_at', 'desc')
      .orderBy('identity_requests.id', 'desc')
      .limit(500)
      .execute();
    return {
      success: true,
      res: rows.map((row) => ({
        id: row.id,
        provider: providerName(row.issuer),
        email: row.email,
        name: row.name,
        account: { userId: row.userId, identifier: row.identifier, name: nameOf(row), role: row.role },
        createdAt: iso(row.createdAt) ?? '',
        lastSeenAt: iso(row.lastSeenAt) ?? '',
      })),
    };
  });

  route(LinkIdentityRequest, async ({ body, auth, req }) => {
    const outcome = accounts ? await accounts.linkRequest(body.requestId, auditContextOf(req, auth.userId)) : 'unknown';
    if (outcome === 'unknown') throw notFound('identity_request_not_found');
    if (outcome === 'taken') throw conflict('sso_link_exists');
    return { success: true, ...said('identity_linked') };
  });

  route(DismissIdentityRequest, async ({ body, auth, req }) => {
    const request = await db
      .selectFrom('identity_requests')
      .innerJoin('users', 'users.id', 'identity_requests.user_id')
      .select(['identity_requests.id as id', 'identity_requests.email as email', 'users.id as userId', 'identifier'])
      .where('identity_requests.id', '=', body.requestId)
      .executeTakeFirst();
    if (!request) throw notFound('identity_request_not_found');
    await db.deleteFrom('identity_requests').where('id', '=', request.id).execute();
    await audited(req, auth.userId, request, 'user.sso_dismiss', {
      pendingSignIn: { before: request.email, after: null },
    });
    return { success: true, ...said('identity_request_dismissed') };
  });
}
