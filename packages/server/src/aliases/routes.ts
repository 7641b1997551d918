/**
 * Functional aliases (issue 59 item 5, packages/protocol/src/api/aliases.ts): an administrator defines them and
 * the roles that may take each (audited: audit/auditing.ts); a user of those roles takes or gives back one for
 * itself (audited too, issue 69: whoever holds an alias is rung in its name); an administrator assigns anyone, a
 * dispatcher only a member of a channel it dispatches (the rule of setUserStatus: who may set a member's status may
 * give it a role on the desk). Each change of a list or of holders is pushed (`aliases_changed`) and read again by
 * the labels that real time shows beside a name.
 */
import {
  type Alias,
  AssignAlias,
  CreateAlias,
  DeleteAlias,
  GetAliases,
  ReleaseAlias,
  TakeAlias,
  UpdateAlias,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { EventBus } from '../events.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, type TokenOwner } from '../http/route.ts';
import type { UserStore } from '../users/store.ts';
import type { AliasLabels } from './labels.ts';
import type { AliasStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface AliasServices {
  aliases: AliasStore;
  aliasLabels: AliasLabels;
  access: ChannelAccess;
  memberships: MembershipStore;
  users: UserStore;
  events: EventBus;
  sessions: SessionStore;
}

export function aliasRoutes(app: FastifyInstance, services: AliasServices): void {
  const { aliases, aliasLabels, access, memberships, users, events } = services;
  const route = defineRoutes(app, services.sessions);

  /** The alias after a change, once the labels know it; everyone's lists follow. */
  async function changed(aliasId: number): Promise<Alias> {
    await aliasLabels.refresh();
    events.emit('aliasesChanged', {});
    const alias = await aliases.byId(aliasId);
    if (!alias) throw notFound('alias_not_found');
    return alias;
  }

  /** A take by the user itself (takeAlias, or assignAlias to oneself): only by a role the alias names. */
  async function requireTaker(auth: TokenOwner, aliasId: number): Promise<void> {
    const alias = await aliases.byId(aliasId);
    if (!alias) throw notFound('alias_not_found');
    if (!alias.takeRoles.includes(auth.role)) throw new HttpError(403, 'alias_role_not_allowed', { name: alias.name });
  }

  async function give(aliasId: number, userId: number): Promise<Alias> {
    const taken = await aliases.take(aliasId, userId);
    if (taken === 'unknown') throw notFound('alias_not_found');
    if (taken === 'full') {
      const alias = await aliases.byId(aliasId);
      throw conflict('alias_full', { name: alias?.name ?? '', max: alias?.maxHolders ?? 0 });
    }
    return changed(aliasId);
  }

  async function giveBack(aliasId: number, userId: number): Promise<Alias> {
    if (!(await aliases.byId(aliasId))) throw notFound('alias_not_found');
    await aliases.release(aliasId, userId);
    return changed(aliasId);
  }

  /** An administrator assigns anyone; a dispatcher, a member of a channel it dispatches. */
  async function requireMayAssign(auth: TokenOwner, userId: number): Promise<void> {
    const where = await access.channelsWhere(auth, 'channel.dispatch');
    if (where === undefined) return;
    const dispatched = new Set(where);
    const theirs = await memberships.channelsOfMember(userId);
    if (!theirs.some((channel) => dispatched.has(channel.id))) throw forbidden('alias_assign_not_allowed');
  }

  route(GetAliases, async () => ({ success: true, res: await aliases.list() }));

  route(CreateAlias, async ({ body }) => {
    if (await aliases.nameTaken(body.name)) throw badRequest('alias_name_taken', { name: body.name });
    let id: number;
    try {
      id = await aliases.create(body.name, body.maxHolders, [...new Set(body.takeRoles)]);
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest('alias_name_taken', { name: body.name });
      throw error;
    }
    return { success: true, ...said('alias_created', { name: body.name }), res: await changed(id) };
  });

  route(UpdateAlias, async ({ body }) => {
    const alias = await aliases.byId(body.aliasId);
    if (!alias) throw notFound('alias_not_found');
    if (body.name !== undefined && (await aliases.nameTaken(body.name, alias.id)))
      throw badRequest('alias_name_taken', { name: body.name });
    if (body.maxHolders !== undefined && body.maxHolders < alias.holders.length)
      throw conflict('alias_holders_over', { count: alias.holders.length });
    try {
      await aliases.update(alias.id, { name: body.name, maxHolders: body.maxHolders, takeRoles: body.takeRoles });
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest('alias_name_taken', { name: body.name ?? '' });
      throw error;
    }
    const updated = await changed(alias.id);
    return { success: true, ...said('alias_updated', { name: updated.name }), res: updated };
  });

  route(DeleteAlias, async ({ body }) => {
    if (!(await aliases.remove(body.aliasId))) throw notFound('alias_not_found');
    await aliasLabels.refresh();
    events.emit('aliasesChanged', {});
    return { success: true, ...said('alias_deleted') };
  });

  route(TakeAlias, async ({ body, auth }) => {
    await requireTaker(auth, body.aliasId);
    const alias = await give(body.aliasId, auth.userId);
    return { success: true, ...said('alias_taken', { name: alias.name }), res: alias };
  });

  route(ReleaseAlias, async ({ body, auth }) => {
    const alias = await giveBack(body.aliasId, auth.userId);
    return { success: true, ...said('alias_released', { name: alias.name }), res: alias };
  });

  route(AssignAlias, async ({ body, auth }) => {
    if (!(await users.row(body.userId))) throw notFound('user_not_found');
    if (body.userId !== auth.userId) await requireMayAssign(auth, body.userId);
    else if (body.holds) await requireTaker(auth, body.aliasId);
    const alias = body.holds ? await give(body.aliasId, body.userId) : await giveBack(body.aliasId, body.userId);
    return {
      success: true,
      ...said(body.holds ? 'alias_assigned' : 'alias_released', { name: alias.name }),
      res: alias,
    };
  });
}
