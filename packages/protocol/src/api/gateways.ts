/**
 * SIP gateways (issue 51): radios (a radio-over-IP box on a radio's audio and PTT) and desk phones dial a channel
 * and become one of its participants, under the same floor, recorded like everyone. An administrator adds a
 * gateway on /settings with SIP credentials of its own (a login and a generated secret, shown once), the channels
 * it may enter, the addresses it may call from and how it takes the floor: by its voice (attack and hang time) or
 * by DTMF (`*` takes, `#` gives back). A channel through the media server is dialled by its number
 * (`channelNumber`).
 */
import { z } from 'zod';
import { call, Id, ok, requiredText } from '../call.ts';

export const GATEWAY_NAME_MAX = 80;
/** A SIP login: what a gateway's digest `username` may be (no quote, no comma, no space). */
export const GATEWAY_LOGIN_PATTERN = /^[A-Za-z0-9._-]{3,64}$/;
/** The generated secret: letters and digits, this long. */
export const GATEWAY_SECRET_LENGTH = 24;
export const GATEWAY_ADDRESSES_MAX = 50;
export const GATEWAY_CHANNELS_MAX = 500;

/** How a gateway takes the floor: its voice (`voice`: attack and hang time) or DTMF (`*` takes, `#` gives back). */
export const GATEWAY_FLOOR_MODES = ['voice', 'dtmf'] as const;
export type GatewayFloorMode = (typeof GATEWAY_FLOOR_MODES)[number];

/** Voice activity by default: the floor is asked within 0.4 s of voice and given back 1.5 s after it stops. */
export const GATEWAY_ATTACK_MS_DEFAULT = 400;
export const GATEWAY_HANG_MS_DEFAULT = 1500;
export const GatewayAttackMs = z.number().int().min(20).max(5_000);
export const GatewayHangMs = z.number().int().min(100).max(30_000);

/**
 * How many calls a gateway may hold at once (issue 57): past it, a call is answered 486 Busy Here. Null, the
 * default, is one call per channel it may enter (at least one); an administrator raises it for a gateway that
 * calls the same channel from several lines.
 */
export const GATEWAY_SIMULTANEOUS_CALLS_MAX = 1000;
export const GatewaySimultaneousCalls = z
  .number()
  .int()
  .min(1, 'must be at least 1')
  .max(GATEWAY_SIMULTANEOUS_CALLS_MAX, `must be at most ${GATEWAY_SIMULTANEOUS_CALLS_MAX}`)
  .nullable();

/** The calls a gateway may hold at once: its own limit, or one per channel it may enter (at least one). */
export function gatewayCallLimit(gateway: { simultaneousCalls: number | null; channelIds: readonly number[] }): number {
  return gateway.simultaneousCalls ?? Math.max(1, gateway.channelIds.length);
}

/**
 * The floor priority a gateway takes with (the same levels as the roles': a member's by default, a dispatcher's or
 * an administrator's where the administrator gives it one).
 */
export const GATEWAY_PRIORITIES = ['member', 'dispatcher', 'admin'] as const;
export type GatewayPriority = (typeof GATEWAY_PRIORITIES)[number];

/**
 * An address a gateway may call from: an IPv4 or IPv6 address, or a CIDR block (`192.0.2.0/24`). Checked by the
 * server with node:net's BlockList, which says which field is wrong.
 */
export const GatewayAddress = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[0-9A-Fa-f:.]+(\/\d{1,3})?$/, 'must be an IP address or a CIDR block such as 192.0.2.0/24');

/**
 * The number a channel through the media server is dialled by: its id plus 1000, so that every channel has one
 * at once, no two share one and it never changes (a radio technician programs it once). Null for a channel
 * whose voice always goes peer to peer (`mesh`): no gateway can reach it.
 */
export function channelNumber(channel: { id: number; voiceMode: string }): string | null {
  return channel.voiceMode === 'mesh' ? null : String(1000 + channel.id);
}

/** The channel id a dialled number names, or undefined when it names none (not digits, or below 1001). */
export function channelIdOfNumber(number: string): number | undefined {
  if (!/^\d{4,12}$/.test(number)) return undefined;
  const id = Number(number) - 1000;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The peer id of a gateway's call among a room's peers (RoomPeer.gateway): it has no socket. */
export const gatewayPeerId = (callId: string) => `sip:${callId}`;

export const GatewaySchema = z.object({
  id: z.number(),
  name: z.string(),
  login: z.string(),
  channelIds: z.array(z.number()),
  /** Empty: any address may call with the credentials. */
  allowedAddresses: z.array(z.string()),
  floorMode: z.enum(GATEWAY_FLOOR_MODES),
  /** Voice activity only: how long voice must last before the floor is asked, and how long after it stops it is given back. */
  attackMs: z.number(),
  hangMs: z.number(),
  priority: z.enum(GATEWAY_PRIORITIES),
  /**
   * While no one talks in the channel, the gateway receives no RTP at all (a radio keys its transmitter on
   * RTP); false: it receives the channel's silence between transmissions, as a phone expects.
   */
  quietBetween: z.boolean(),
  /** The calls it may hold at once; null: one per channel it may enter. A call past it is answered 486 Busy Here. */
  simultaneousCalls: z.number().nullable(),
  createdAt: z.string(),
  /** Its calls now. */
  calls: z.number(),
});
export type Gateway = z.output<typeof GatewaySchema>;

/** A gateway's call in a channel now. */
export const GatewayCallSchema = z.object({
  /** The SIP Call-ID. */
  callId: z.string(),
  gatewayId: z.number(),
  gatewayName: z.string(),
  /** The user the gateway talks as in the channel (its name, its takes in the voice history). */
  userId: z.number(),
  channelId: z.number(),
  channelName: z.string(),
  /** The address it signalled from (`ip:port`) and over which transport. */
  address: z.string(),
  transport: z.enum(['udp', 'tcp']),
  codec: z.string(),
  since: z.string(),
  /** It holds the floor now. */
  talking: z.boolean(),
});
export type GatewayCall = z.output<typeof GatewayCallSchema>;

const GatewayFields = {
  name: requiredText(GATEWAY_NAME_MAX),
  login: z.string().trim().regex(GATEWAY_LOGIN_PATTERN, 'must be 3 to 64 letters, digits, dots, dashes or underscores'),
  channelIds: z.array(Id).max(GATEWAY_CHANNELS_MAX, `at most ${GATEWAY_CHANNELS_MAX} channels`),
  allowedAddresses: z.array(GatewayAddress).max(GATEWAY_ADDRESSES_MAX, `at most ${GATEWAY_ADDRESSES_MAX} addresses`),
  floorMode: z.enum(GATEWAY_FLOOR_MODES),
  attackMs: GatewayAttackMs,
  hangMs: GatewayHangMs,
  priority: z.enum(GATEWAY_PRIORITIES),
  quietBetween: z.boolean(),
  simultaneousCalls: GatewaySimultaneousCalls,
};

/** The organisation's gateways, by name. */
export const ListGateways = call(ok({ res: z.array(GatewaySchema) }))(
  '/user/api/listGateways',
  'gateways.manage',
  z.object({}).passthrough(),
);

/**
 * Adds a gateway (audited as `gateway.create`, never with its secret). The answer carries the generated secret:
 * the only time it is shown (the server keeps only its digest hash). 409 when the login is taken.
 */
export const CreateGateway = call(ok({ res: GatewaySchema, secret: z.string() }))(
  '/user/api/createGateway',
  'gateways.manage',
  z.object({
    name: GatewayFields.name,
    login: GatewayFields.login,
    channelIds: GatewayFields.channelIds.default([]),
    allowedAddresses: GatewayFields.allowedAddresses.default([]),
    floorMode: GatewayFields.floorMode.default('voice'),
    attackMs: GatewayFields.attackMs.default(GATEWAY_ATTACK_MS_DEFAULT),
    hangMs: GatewayFields.hangMs.default(GATEWAY_HANG_MS_DEFAULT),
    priority: GatewayFields.priority.default('member'),
    quietBetween: GatewayFields.quietBetween.default(true),
    simultaneousCalls: GatewayFields.simultaneousCalls.default(null),
  }),
);

/** Changes a gateway (audited as `gateway.update` with the fields changed); its calls in channels it may no longer enter end. */
export const UpdateGateway = call(ok({ res: GatewaySchema }))(
  '/user/api/updateGateway',
  'gateways.manage',
  z.object({
    id: Id,
    name: GatewayFields.name.optional(),
    login: GatewayFields.login.optional(),
    channelIds: GatewayFields.channelIds.optional(),
    allowedAddresses: GatewayFields.allowedAddresses.optional(),
    floorMode: GatewayFields.floorMode.optional(),
    attackMs: GatewayFields.attackMs.optional(),
    hangMs: GatewayFields.hangMs.optional(),
    priority: GatewayFields.priority.optional(),
    quietBetween: GatewayFields.quietBetween.optional(),
    simultaneousCalls: GatewayFields.simultaneousCalls.optional(),
  }),
);

/** A new secret (the old one stops working at once; shown once; audited as `gateway.secret`). */
export const ResetGatewaySecret = call(ok({ secret: z.string() }))(
  '/user/api/resetGatewaySecret',
  'gateways.manage',
  z.object({ id: Id }),
);

/** Deletes a gateway and hangs up its calls (audited as `gateway.delete`); its past takes stay, under its name. */
export const DeleteGateway = call(ok({}))('/user/api/deleteGateway', 'gateways.manage', z.object({ id: Id }));

/** The gateways' calls now, in every channel or in one. */
export const ListGatewayCalls = call(ok({ res: z.array(GatewayCallSchema) }))(
  '/user/api/listGatewayCalls',
  'gateways.manage',
  z.object({ channelId: Id.optional() }),
);

/**
 * Hangs up a gateway's call (a SIP BYE; audited as `gateway.hangUp`): an administrator anywhere, a dispatcher in
 * the channels it dispatches (issue 58; elsewhere 403). 404 when the call has ended.
 */
export const HangUpGatewayCall = call(ok({}))(
  '/user/api/hangUpGatewayCall',
  'channel.gateways',
  z.object({ callId: z.string().min(1).max(200) }),
);
