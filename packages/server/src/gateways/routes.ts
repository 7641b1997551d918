/**
 * SIP gateways (issue 51, packages/protocol/src/api/gateways.ts): an administrator adds, changes and deletes
 * the radios and desk phones that dial channels, and hangs up their calls; a dispatcher hangs them up in the
 * channels it dispatches (issue 58). Each change is audited
 * (audit/auditing.ts: gateway.create, .update, .secret, .delete, .hangUp) and told to the SIP server
 * (`gatewaysChanged`). A secret is made here, answered once and kept only as its digest hashes: it is in no log,
 * no audit row and no table.
 */
import {
  CreateGateway,
  DeleteGateway,
  HangUpGatewayCall,
  ListGatewayCalls,
  ListGateways,
  ResetGatewaySecret,
  UpdateGateway,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { Config } from '../config/config.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { EventBus } from '../events.ts';
import { conflict, invalidInput, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import { badAddress } from './addresses.ts';
import { digestHa1, newSecret } from './secrets.ts';
import type { GatewayCredentials, GatewayFields, GatewayStore } from './store.ts';

/** The digest realm when SIP is off: gateways made before SIP_PORT is set then work with the default realm. */
export const DEFAULT_REALM = 'talkgroup';

/** What this part uses of the services (app.ts hands them over). */
export interface GatewayServices {
  config: Pick<Config, 'sip'>;
  gateways: GatewayStore;
  events: EventBus;
  sessions: SessionStore;
  access: ChannelAccess;
}

/** The hashes of `secret` for this login in the configured realm. */
function credentialsOf(config: Pick<Config, 'sip'>, login: string, secret: string): GatewayCredentials {
  const realm = config.sip?.realm ?? DEFAULT_REALM;
  return {
    realm,
    ha1Md5: digestHa1(login, realm, secret, 'MD5'),
    ha1Sha256: digestHa1(login, realm, secret, 'SHA-256'),
  };
}

export function gatewayRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { config, gateways, events } = services;
  const route = defineRoutes(app, services.sessions);

  /** 400 naming the field and the entry the protocol's schema let through but the server cannot use. */
  async function check(fields: Partial<GatewayFields>): Promise<void> {
    const bad = fields.allowedAddresses ? badAddress(fields.allowedAddresses) : undefined;
    if (bad !== undefined)
      throw invalidInput(`allowedAddresses: ${bad} is not an IP address or a CIDR block such as 192.0.2.0/24`);
    const unknown = fields.channelIds ? await gateways.unknownChannels(fields.channelIds) : [];
    if (unknown.length > 0) throw invalidInput(`channelIds: no channel with id ${unknown.join(', ')}`);
  }

  /** A unique login, said in a sentence; a race between two administrators ends the same way. */
  async function withLogin<T>(login: string | undefined, exceptId: number | undefined, write: () => Promise<T>) {
    if (login !== undefined && (await gateways.loginTaken(login, exceptId)))
      throw conflict('gateway_login_taken', { login });
    try {
      return await write();
    } catch (error) {
      if (login !== undefined && isUniqueViolation(error)) throw conflict('gateway_login_taken', { login });
      throw error;
    }
  }

  route(ListGateways, async () => ({ success: true, res: await gateways.list() }));

  route(CreateGateway, async ({ body }) => {
    await check(body);
    const secret = newSecret();
    const gateway = await withLogin(body.login, undefined, () =>
      gateways.create(body, credentialsOf(config, body.login, secret)),
    );
    return { success: true, ...said('gateway_created'), res: gateway, secret };
  });

  route(UpdateGateway, async ({ body }) => {
    const { id, ...fields } = body;
    const current = await gateways.get(id);
    if (!current) throw notFound('gateway_not_found');
    await check(fields);
    // The hashes name the login: under a new one the old secret can no longer be checked, so it stops working
    // (hashes of a secret nobody knows) until the administrator asks for a new one (resetGatewaySecret).
    const login = fields.login !== undefined && fields.login !== current.login ? fields.login : undefined;
    const updated = await withLogin(login, id, () =>
      gateways.update(id, fields, login !== undefined ? credentialsOf(config, login, newSecret()) : undefined),
    );
    if (!updated) throw notFound('gateway_not_found');
    events.emit('gatewaysChanged', { gatewayId: id });
    return { success: true, ...said('gateway_updated'), res: updated };
  });

  route(ResetGatewaySecret, async ({ body }) => {
    const current = await gateways.get(body.id);
    if (!current) throw notFound('gateway_not_found');
    const secret = newSecret();
    await gateways.update(body.id, {}, credentialsOf(config, current.login, secret));
    events.emit('gatewaysChanged', { gatewayId: body.id });
    return { success: true, ...said('gateway_secret_reset'), secret };
  });

  route(DeleteGateway, async ({ body }) => {
    if (!(await gateways.remove(body.id))) throw notFound('gateway_not_found');
    events.emit('gatewaysChanged', { gatewayId: body.id });
    return { success: true, ...said('gateway_deleted') };
  });

  route(ListGatewayCalls, async ({ body }) => ({ success: true, res: await gateways.calls(body.channelId) }));

  route(HangUpGatewayCall, async ({ body, auth }) => {
    // Who may: an administrator anywhere, a dispatcher in a channel it belongs to (channel.gateways); another
    // channel's dispatcher gets 403 not_channel_member, before anything is flagged.
    const channelId = await gateways.channelOfCall(body.callId);
    if (channelId === undefined) throw notFound('gateway_call_not_found');
    await services.access.require(auth, channelId, 'channel.gateways');
    const call = await gateways.requestHangUp(body.callId);
    if (!call) throw notFound('gateway_call_not_found');
    events.emit('gatewaysChanged', { gatewayId: call.gatewayId, callId: body.callId });
    return { success: true, ...said('gateway_hung_up') };
  });
}

/** Why the SIP server refused a call. */
export type RefusalReason =
  | 'credentials'
  | 'number'
  | 'channel'
  | 'address'
  | 'rate'
  | 'replay'
  | 'busy'
  | 'ports'
  | 'media';

/**
 * The SIP server's audit row for a refused call (issue 51: "every refused call naming the gateway or login and
 * the number dialled"): no one signed in did it, so its actor is "SIP". Only what names the caller and the
 * call is written: never a secret nor an Authorization header.
 */
export async function auditRefusedCall(
  services: { audit: AuditStore },
  refused: {
    login?: string;
    gatewayId?: number;
    gatewayName?: string;
    number: string;
    address: string;
    reason: RefusalReason;
  },
): Promise<void> {
  const changes: Record<string, { before: unknown; after: unknown }> = {
    number: { before: null, after: refused.number },
    reason: { before: null, after: refused.reason },
  };
  if (refused.login !== undefined) changes.login = { before: null, after: refused.login };
  await services.audit.write({
    actorId: null,
    actorName: 'SIP',
    action: 'gateway.refused',
    targetType: 'gateway',
    targetId: refused.gatewayId ?? null,
    targetName: refused.gatewayName ?? refused.login ?? null,
    changes,
    address: refused.address,
    requestId: null,
  });
}
