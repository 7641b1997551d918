/**
 * Who may do what: one table of role -> capabilities, and one question, `may(user, channel, capability)`,
 * asked by the server's HTTP guard, its socket handlers and file links, and by the web app's guards and menus
 * (Mumble's `ACL::hasPermission(user, channel, perm)`). A rule is written here and nowhere else: a handler
 * never compares a role with a name. Roles are data: a new role is a new row of ROLE_RULES (the database keeps
 * the role as plain text, without a list of allowed values).
 */
import { z } from 'zod';

/**
 * What a user may do, with what it covers. Capabilities named `channel.*` are asked about one channel: a
 * role holds them everywhere (an administrator) or in the channels it belongs to (members, dispatchers).
 */
export const CAPABILITIES = {
  'users.manage': 'create, edit, delete, import and export users; read the whole users list; act for any user',
  'channels.manage': 'create, rename, delete, import and export channels; set their members and member rights',
  'activities.delete': 'delete old activities',
  'statistics.read': "the dashboard's statistics",
  'audit.read': 'the audit log of privileged changes',
  'voice.manage': 'delete and export recorded transmissions',
  'messages.moderate': "delete other users' chat messages",
  'legacy.read': 'the legacy call events and devices',
  'channel.read': 'a channel: its members, chat, images and voice history',
  'channel.listen': "hear a channel's voice (be in its room)",
  'channel.talk': "take a channel's floor (talk)",
  'channel.chat': 'send messages and images to a channel',
  'channel.map': "see the positions of a channel's members",
  'channel.activities': "read a channel's activities",
  'channel.alerts': "see and acknowledge a channel's SOS alerts",
  'channel.trails': "read and export the position history (trails) of a channel's members",
  'channel.geofences': "draw, edit and delete a channel's geofences and receive their alerts",
  'settings.manage': "change the organisation's settings (whether members may call each other privately)",
  'gateways.manage': 'add, change and delete SIP gateways (radios and desk phones)',
  'channel.monitor': 'monitor a channel from the dispatch console (its tile: who talks, volume, last transmissions)',
  'channel.broadcast': 'talk in several channels at once (all call)',
  'channel.patch': "patch a channel's voice with other channels (through the media server)",
  'channel.call': "call a channel's members privately (a private call)",
  'channel.dispatch':
    "answer a channel's dispatch requests (the call queue: take, send back, transfer, close) and set its members' statuses",
  'channel.reports':
    "read a channel's reports over a period (talk time, busy hours, SOS and queue times, missed transmissions)",
  'channel.gateways': "hang up a SIP gateway's call (a radio or desk phone) in a channel",
  'channel.devices':
    "see the device status of a channel's members (battery, network, app open) and ask their phones for a fresh one",
  'channel.videoShare': "share one's camera live in a channel (live video, issue 61)",
  'channel.videoWatch':
    "watch a channel's live video and its recordings whatever its audience, and ask its members for their video",
} as const;
export type Capability = keyof typeof CAPABILITIES;
export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as Capability[];

/**
 * How a role holds a capability in the channels it belongs to: `true` always; `canTalk` only where its
 * membership may talk (a listen-only member); `mapRight` only when its account has map access.
 */
export type ChannelGrant = true | 'canTalk' | 'mapRight';

export interface RoleRules {
  /** Held everywhere: for a `channel.*` capability, in every channel, member or not. */
  everywhere: readonly Capability[];
  /** Held in the channels the user belongs to. */
  inOwnChannels: Partial<Record<Capability, ChannelGrant>>;
  /** The role's default talk priority (1 to 9, issue 59): a higher one preempts a lower one. */
  floorPriority: number;
  /**
   * Its rank when it watches people (issue 69): listening to, filming, reading the device of or switching the
   * channel of someone goes down the ranks only (`mayActOn`).
   */
  rank: number;
  /** Acts on its equals too (administrators on other administrators; never on oneself, which the caller asks). */
  actsOnPeers?: boolean;
}

const MEMBER_CHANNEL_RIGHTS = {
  'channel.read': true,
  'channel.listen': true,
  'channel.talk': 'canTalk',
  'channel.chat': true,
  'channel.map': 'mapRight',
  'channel.videoShare': 'canTalk',
} as const satisfies RoleRules['inOwnChannels'];

export const ROLE_RULES = {
  /** Everything, in every channel (spec section 6: the administrator). */
  admin: { everywhere: CAPABILITY_NAMES, inOwnChannels: {}, floorPriority: 7, rank: 3, actsOnPeers: true },
  /**
   * The desk of an operation: reads, hears, talks in and chats in its channels, with floor priority above
   * members; sees their map, activities and voice history and takes their SOS alerts; from the dispatch console
   * it monitors them, talks on several at once, patches them, calls their members privately and hangs up a
   * gateway's call there (issue 58). Manages nothing.
   */
  dispatcher: {
    everywhere: [],
    inOwnChannels: {
      ...MEMBER_CHANNEL_RIGHTS,
      'channel.map': true,
      'channel.activities': true,
      'channel.alerts': true,
      'channel.trails': true,
      'channel.geofences': true,
      'channel.monitor': true,
      'channel.broadcast': 'canTalk',
      'channel.patch': true,
      'channel.call': true,
      'channel.dispatch': true,
      'channel.reports': true,
      'channel.gateways': true,
      'channel.devices': true,
      'channel.videoWatch': true,
    },
    floorPriority: 6,
    rank: 2,
  },
  /** A team member on a phone: its own channels, the map with map access. */
  member: { everywhere: [], inOwnChannels: MEMBER_CHANNEL_RIGHTS, floorPriority: 3, rank: 1 },
} as const satisfies Record<string, RoleRules>;

export type Role = keyof typeof ROLE_RULES;
export const ROLES = Object.keys(ROLE_RULES) as [Role, ...Role[]];
/** A role one may give (signUpUser, updateUserData, the import): one of the table's. */
export const RoleSchema = z.enum(ROLES);
/**
 * A role as the server returns it: the text stored, which may name a role this version does not know (a
 * newer row, written by a newer version); such a user may do nothing here, but it is still shown.
 */
export const StoredRoleSchema = z.string();

/** The role a stored text names, if this version knows it. */
export function knownRole(value: string): Role | undefined {
  return Object.hasOwn(ROLE_RULES, value) ? (value as Role) : undefined;
}
/**
 * An emergency breaks in on anyone but another emergency (issue 14): above every talk priority (1 to 9, issue
 * 59; a role's floorPriority is its default talk priority).
 */
export const EMERGENCY_FLOOR_PRIORITY = 10;

/** Who asks: its role and, for `mapRight` grants, its account's map access. */
export interface Actor {
  role: string;
  mapRight?: boolean;
}

/** The user's place in the channel asked about: a member or not, and whether its membership may talk. */
export interface ChannelStanding {
  member: boolean;
  /** Per membership (default true): false for a listen-only member. */
  canTalk?: boolean;
  /**
   * A membership that gives a member's rights only, whatever the role (issue 69): one its user's reported position
   * made (an area channel: a place, not a power), or a regroup's for anyone but its creator (being regrouped is
   * no power over the others regrouped). It gives what a member's membership gives (listen, talk, chat, the map
   * with map access, share video), never a dispatcher's right.
   */
  memberRightsOnly?: boolean;
}

function rulesOf(role: string): RoleRules | undefined {
  return Object.hasOwn(ROLE_RULES, role) ? ROLE_RULES[role as Role] : undefined;
}

/**
 * May `user` do `capability`? `channel` null asks about the organisation (a capability held everywhere);
 * a standing asks about one channel. An unknown role may do nothing.
 */
export function may(user: Actor, channel: ChannelStanding | null, capability: Capability): boolean {
  const rules = rulesOf(user.role);
  if (!rules) return false;
  if (rules.everywhere.includes(capability)) return true;
  if (!channel?.member) return false;
  const own = rules.inOwnChannels[capability];
  // A member's grant (the map with map access only), for a role that holds the capability in its channels at all.
  const grant = channel.memberRightsOnly
    ? own !== undefined && Object.hasOwn(MEMBER_CHANNEL_RIGHTS, capability)
      ? MEMBER_CHANNEL_RIGHTS[capability as keyof typeof MEMBER_CHANNEL_RIGHTS]
      : undefined
    : own;
  if (grant === true) return true;
  if (grant === 'canTalk') return channel.canTalk !== false;
  if (grant === 'mapRight') return user.mapRight === true;
  return false;
}

/** May `user` do `capability` somewhere (everywhere, or at least in channels it belongs to)? The guard's question. */
export function mayAnywhere(user: Actor, capability: Capability): boolean {
  const rules = rulesOf(user.role);
  if (!rules) return false;
  return rules.everywhere.includes(capability) || rules.inOwnChannels[capability] !== undefined;
}

/**
 * May `caller` use a power over a person of role `targetRole` (listen to its surroundings, film it without consent,
 * read or ask for its device's status, switch its selected channel)? Down the ranks only (member below dispatcher
 * below administrator): never on an equal or a higher one, but for a role that acts on its peers (administrators).
 * An unknown role ranks below every known one, and acts on nobody. The caller refuses oneself apart.
 */
export function mayActOn(caller: Actor, targetRole: string): boolean {
  const rules = rulesOf(caller.role);
  if (!rules) return false;
  const target = rulesOf(targetRole)?.rank ?? 0;
  return rules.rank > target || (rules.actsOnPeers === true && rules.rank === target);
}

/** The floor priority of a role (0 for an unknown one). */
export function floorPriorityOf(role: string): number {
  return rulesOf(role)?.floorPriority ?? 0;
}

/**
 * A role cell of a user import: a role's name in any case (blank: `undefined`, the default applies), or
 * `null` when it names no role.
 */
export function parseRoleCell(cell: unknown): Role | undefined | null {
  const text = cell === null || cell === undefined ? '' : String(cell).trim().toLowerCase();
  if (text === '') return undefined;
  return (ROLES as readonly string[]).includes(text) ? (text as Role) : null;
}

export function isCapability(value: string): value is Capability {
  return Object.hasOwn(CAPABILITIES, value);
}
