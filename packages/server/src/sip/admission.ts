/**
 * Who may call (issue 51): a request's digest credentials checked against the gateway's hashes, the address it
 * calls from against the gateway's list, and the number it dials against the channels the gateway may enter.
 * Each refusal gets its SIP answer (a 401 challenge first; 403 for credentials, an address or a channel not
 * allowed; 404 for a number that names no channel through the media server) and, but the challenge, an audit
 * entry `gateway.refused` naming the login or the gateway, the number and why: never the secret.
 */
import { channelIdOfNumber } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Core } from 'sip.js';
import type { AuditStore } from '../audit/store.ts';
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import { addressAllowed } from '../gateways/addresses.ts';
import { auditRefusedCall, type RefusalReason } from '../gateways/routes.ts';
import type { GatewayStore, SipGateway } from '../gateways/store.ts';
import { type DigestAuthority, readCredentials } from './digest.ts';
import type { Flow } from './signalling.ts';

type Request = Core.IncomingInviteRequest | Core.IncomingRegisterRequest;

export function admission(deps: {
  digest: DigestAuthority;
  services: { gateways: Pick<GatewayStore, 'byLogin'>; audit: AuditStore; channels: Pick<ChannelStore, 'byId'> };
  log: FastifyBaseLogger;
}) {
  const { digest, services, log } = deps;

  function refuse(
    request: Request,
    statusCode: number,
    audit: { reason: RefusalReason; login?: string; gateway?: SipGateway; number: string; flow: Flow },
    answer = true,
  ): void {
    if (answer) request.reject({ statusCode });
    void auditRefusedCall(services, {
      login: audit.login,
      gatewayId: audit.gateway?.id,
      gatewayName: audit.gateway?.name,
      number: audit.number,
      address: `${audit.flow.ip}:${audit.flow.port}`,
      reason: audit.reason,
    }).catch((error) => log.error({ err: error }, 'could not audit a refused SIP call'));
  }

  /** When each address's replayed answer was last audited: once a minute per address. */
  const replayAudited = new Map<string, number>();

  const challenge = (stale: boolean) => digest.challenge(stale).map((value) => `WWW-Authenticate: ${value}`);

  /** The gateway a request authenticates as, or undefined once it has been answered (challenged or refused). */
  async function authenticate(request: Request, flow: Flow, number: string): Promise<SipGateway | undefined> {
    const message = request.message;
    const credentials = readCredentials(message.getHeader('authorization') ?? message.getHeader('proxy-authorization'));
    if (!credentials) {
      request.reject({ statusCode: 401, extraHeaders: challenge(false) });
      return undefined;
    }
    const gateway = await services.gateways.byLogin(credentials.username);
    const verdict = gateway ? digest.verify(credentials, message, gateway) : 'wrong';
    if (verdict === 'stale') {
      request.reject({ statusCode: 401, extraHeaders: challenge(true) });
      return undefined;
    }
    if (verdict === 'replayed') {
      // A right answer sent again: a new challenge (a gateway that reused its nonce by mistake answers it), and
      // the audit says so once a minute per address (a replay flood is one line a minute).
      request.reject({ statusCode: 401, extraHeaders: challenge(false) });
      const now = Date.now();
      if (now - (replayAudited.get(flow.ip) ?? Number.NEGATIVE_INFINITY) >= 60_000) {
        if (replayAudited.size > 10_000) replayAudited.clear();
        replayAudited.set(flow.ip, now);
        void auditRefusedCall(services, {
          login: credentials.username,
          gatewayId: gateway?.id,
          gatewayName: gateway?.name,
          number,
          address: `${flow.ip}:${flow.port}`,
          reason: 'replay',
        }).catch((error) => log.error({ err: error }, 'could not audit a replayed SIP answer'));
      }
      return undefined;
    }
    if (!gateway || verdict === 'wrong') {
      refuse(request, 403, { reason: 'credentials', login: credentials.username, gateway, number, flow });
      return undefined;
    }
    if (!addressAllowed(gateway.allowedAddresses, flow.ip)) {
      refuse(request, 403, { reason: 'address', login: gateway.login, gateway, number, flow });
      return undefined;
    }
    return gateway;
  }

  return {
    refuse,
    authenticate,
    /** The channel an authenticated gateway may enter by this number, or undefined once refused (404, 403). */
    async channelFor(
      request: Core.IncomingInviteRequest,
      flow: Flow,
      gateway: SipGateway,
      number: string,
    ): Promise<ChannelSummary | undefined> {
      const channelId = channelIdOfNumber(number);
      const channel = channelId ? await services.channels.byId(channelId) : undefined;
      if (!channel || channel.hidden || channel.voiceMode === 'mesh') {
        refuse(request, 404, { reason: 'number', login: gateway.login, gateway, number, flow });
        return undefined;
      }
      if (!gateway.channelIds.includes(channel.id)) {
        refuse(request, 403, { reason: 'channel', login: gateway.login, gateway, number, flow });
        return undefined;
      }
      return channel;
    },
    /** Whether media may go to (and come from) this IP for the gateway: the caller's own, or one of its list. */
    mediaAllowed: (gateway: SipGateway, flow: Flow) => (ip: string) =>
      ip === flow.ip || (gateway.allowedAddresses.length > 0 && addressAllowed(gateway.allowedAddresses, ip)),
  };
}

export type Admission = ReturnType<typeof admission>;
