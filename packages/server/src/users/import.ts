/**
 * Spec section 5's user import rules, applied on the server: the client is never trusted with them. Issue 17
 * adds what an administrator needs to trust an import:
 * - every row not added carries its `reason` (`empty_field` with the `field`, `invalid_login`, `bad_map_right`,
 *   `weak_password`); every row already existing says whether the login is in the database (`exists`) or
 *   earlier in the file (`duplicate`);
 * - a channel named in `canal` that does not exist is reported (`unknownChannels`), or created when asked
 *   (`createChannels`, then `createdChannels`);
 * - mode `update`: a row whose login exists updates that user (names, pseudo, mapRight, its channels added; a
 *   blank password keeps the old one) and goes to a fourth group, `updated`;
 * - a `role` column (admin, dispatcher or member; blank: member, or unchanged for an update); a row that names
 *   no role is not added (`bad_role`), nor one that changes the importer's own role (`own_role`) or demotes
 *   the last administrator (`last_admin`);
 * - a `talkPriority` column (issue 59: 1 to 9; blank: the role's default for a new user, unchanged for an
 *   update; `default` gives the role's back); anything else is not added (`bad_talk_priority`).
 */
import {
  dedupeUserRows,
  type ImportReport,
  isBlank,
  LOGIN_MAX,
  LOGIN_MIN,
  normaliseImportRow,
  normalizeName,
  parseMapRight,
  parseRoleCell,
  parseTalkPriorityCell,
  rtcSessionOf,
  splitChannelNames,
  USER_IMPORT_FIELDS,
  type UserImportRow,
} from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { HashPool } from '../auth/hash-pool.ts';
import type { PasswordPolicy } from '../auth/password-policy.ts';
import type { Sealer } from '../auth/sealed.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { slices } from '../db/batch.ts';
import type { EventBus } from '../events.ts';
import { loopTurn } from '../process/loop-turn.ts';
import type { UserStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ImportServices {
  activities: ActivityStore;
  /** A channel by its room key, or a new one (channels/store.ts). */
  channels: {
    byRtcSession(rtcSession: string): Promise<{ id: number } | undefined>;
    create(name: string): Promise<{ id: number; name: string }>;
  };
  events: EventBus;
  hashPool: HashPool;
  /** Channels' ids by their names, and a user added to channels (channels/membership.ts). */
  memberships: {
    channelIdsByNames(names: string[]): Promise<Map<string, number>>;
    addUserToChannels(userId: number, ids: number[]): Promise<void>;
  };
  passwordPolicy: PasswordPolicy;
  sessions: SessionStore;
  users: UserStore;
}

/** Rows handed to the hash pool at once (it runs as many as it has workers: auth/hash-pool.ts). */
const PARALLEL_HASHES = 4;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Row = Record<string, unknown>;

export interface UserImportOptions {
  mode?: 'add' | 'update';
  createChannels?: boolean;
  /** Who imports: the author of the channels it creates. */
  actorId?: number;
}

export interface UserImportReport extends ImportReport<Row> {
  updated: Row[];
  unknownChannels: string[];
  createdChannels: string[];
}

export const identifierOf = (row: UserImportRow) =>
  String(row.identifier ?? '')
    .trim()
    .toLowerCase();

/** Why a row cannot be imported; undefined when it can. A blank password is allowed for an update. */
function refusal(row: UserImportRow, services: ImportServices, updating: boolean): Row | undefined {
  const empty = USER_IMPORT_FIELDS.find((field) => isBlank(row[field]) && !(field === 'password' && updating));
  if (empty) return { reason: 'empty_field', field: empty };
  const identifier = identifierOf(row);
  if (identifier.length < LOGIN_MIN || identifier.length > LOGIN_MAX || !EMAIL.test(identifier))
    return { reason: 'invalid_login', field: 'identifier' };
  if (parseMapRight(row.mapRight) === undefined) return { reason: 'bad_map_right', field: 'mapRight' };
  if (parseRoleCell(row.role) === null) return { reason: 'bad_role', field: 'role' };
  if (parseTalkPriorityCell(row.talkPriority) === null) return { reason: 'bad_talk_priority', field: 'talkPriority' };
  if (!isBlank(row.password) && services.passwordPolicy.problem(String(row.password)))
    return { reason: 'weak_password', field: 'password' };
  return undefined;
}

/** The talk priority a checked row stores: a number, null for the role's default, undefined when blank. */
function storedTalkPriority(row: UserImportRow): number | null | undefined {
  const cell = parseTalkPriorityCell(row.talkPriority);
  return cell === 'default' ? null : (cell ?? undefined);
}

/** Never echo a password back. */
export function shown(row: Row): Row {
  const { password: _, ...rest } = row;
  return rest;
}

/** A row of the file after the checks: one to add, one to update, or one only reported (refused or a repeat). */
export type ImportEntry =
  | { action: 'add' | 'update'; row: UserImportRow }
  | { action: 'report'; outcome: 'notAdded' | 'alreadyExisting'; data: Row };

/** The rows' channels by name (created when asked), as the import resolved them. */
export type ChannelIds = Map<string, number>;

/**
 * The checks of the whole file, before any password is hashed: the rows in order (exact duplicates dropped)
 * with what to do with each, and the channels their `canal` cells name (created when asked, else reported in
 * `channels.unknownChannels`).
 */
export async function classifyUsers(
  services: ImportServices,
  rawRows: Array<Record<string, unknown>>,
  options: UserImportOptions = {},
): Promise<{
  entries: ImportEntry[];
  channelIds: ChannelIds;
  channels: Pick<UserImportReport, 'unknownChannels' | 'createdChannels'>;
}> {
  const updateMode = options.mode === 'update';
  const rows = dedupeUserRows(rawRows.map((row) => normaliseImportRow(row)));
  const existing = await services.users.existingIdentifiers([
    ...new Set(rows.map(identifierOf).filter((identifier) => identifier !== '')),
  ]);
  const entries: ImportEntry[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const identifier = identifierOf(row);
    const updating = updateMode && existing.has(identifier) && !seen.has(identifier);
    const refused = refusal(row, services, updating);
    if (refused) entries.push({ action: 'report', outcome: 'notAdded', data: { ...shown(row), ...refused } });
    else if (seen.has(identifier))
      entries.push({ action: 'report', outcome: 'alreadyExisting', data: { ...shown(row), reason: 'duplicate' } });
    else if (existing.has(identifier) && !updateMode)
      entries.push({ action: 'report', outcome: 'alreadyExisting', data: { ...shown(row), reason: 'exists' } });
    else entries.push({ action: updating ? 'update' : 'add', row });
    if (!refused) seen.add(identifier);
  }
  const channels = { unknownChannels: [] as string[], createdChannels: [] as string[] };
  const toImport = entries.flatMap((entry) => (entry.action === 'report' ? [] : [entry.row]));
  const channelIds = await channelsOf(toImport, services, options, channels);
  return { entries, channelIds, channels };
}

const channelIdsOf = (row: UserImportRow, channelIds: ChannelIds) =>
  splitChannelNames(row.canal)
    .map((name) => channelIds.get(name))
    .filter((channelId): channelId is number => channelId !== undefined);

/** The password of a row to add or update, or undefined when it keeps the old one (an update's blank cell). */
/** Rows sealed between two turns of the event loop when a job is stored. */
const SEALED_PER_TURN = 500;

/**
 * What a job keeps of each entry: a settled one's report, a row to handle sealed (its password). 15,000 rows held
 * the main thread over half a second in one go: sealed a slice at a time, the event loop turning between (issue 57).
 */
export async function storedData(entries: ImportEntry[], sealer: Sealer): Promise<string[]> {
  const data: string[] = [];
  for (const slice of slices(entries, SEALED_PER_TURN)) {
    for (const entry of slice)
      data.push(entry.action === 'report' ? JSON.stringify(entry.data) : sealer.seal(JSON.stringify(entry.row)));
    await loopTurn();
  }
  return data;
}

export const passwordOf = (row: UserImportRow) => (isBlank(row.password) ? undefined : String(row.password));

/** Adds one checked row, its password already hashed; the row as answered (with its id, without the password). */
export async function addImportedUser(
  services: ImportServices,
  row: UserImportRow,
  passwordHash: string,
  channelIds: ChannelIds,
): Promise<Row> {
  const id = await services.users.create({
    firstName: normalizeName(String(row.firstName)),
    lastName: normalizeName(String(row.lastName)),
    identifier: identifierOf(row),
    pseudo: normalizeName(String(row.pseudo)),
    password: String(row.password),
    passwordHash,
    mapRight: parseMapRight(row.mapRight) ?? false,
    role: parseRoleCell(row.role) ?? 'member',
    talkPriority: storedTalkPriority(row),
  });
  await services.memberships.addUserToChannels(id, channelIdsOf(row, channelIds));
  return { ...shown(row), id };
}

/**
 * Updates the user of one checked row (mode `update`), its new password (if any) already hashed: the group the
 * row goes to, and whether the user's role or map access changed. A new password ends the user's sessions.
 */
export async function updateImportedUser(
  services: ImportServices,
  row: UserImportRow,
  passwordHash: string | undefined,
  channelIds: ChannelIds,
  actorId: number | undefined,
): Promise<{ outcome: 'updated' | 'notAdded'; data: Row; rightsChanged?: number } | undefined> {
  const current = await services.users.rowByIdentifier(identifierOf(row));
  if (!current) return undefined;
  const role = parseRoleCell(row.role) ?? current.role;
  const mapRight = parseMapRight(row.mapRight) ?? false;
  if (role !== current.role) {
    if (current.id === actorId)
      return { outcome: 'notAdded', data: { ...shown(row), reason: 'own_role', field: 'role' } };
    if (!(await services.users.changeRole(current.id, role)))
      return { outcome: 'notAdded', data: { ...shown(row), reason: 'last_admin', field: 'role' } };
  }
  const talkPriority = storedTalkPriority(row);
  await services.users.update(current.id, {
    firstName: normalizeName(String(row.firstName)),
    lastName: normalizeName(String(row.lastName)),
    pseudo: normalizeName(String(row.pseudo)),
    mapRight,
    passwordHash,
    talkPriority,
  });
  const rightsChanged =
    role !== current.role ||
    mapRight !== (current.map_right === 1) ||
    (talkPriority !== undefined && talkPriority !== current.talk_priority)
      ? current.id
      : undefined;
  await services.memberships.addUserToChannels(current.id, channelIdsOf(row, channelIds));
  if (passwordHash) {
    // A new password ends the user's sessions, as it does from the edit dialog.
    await services.sessions.revokeAll(current.id);
    services.events.emit('sessionsEnded', { userId: current.id, reason: 'password' });
  }
  return { outcome: 'updated', data: { ...shown(row), id: current.id }, rightsChanged };
}

/** The import of a file at once (small imports; a big one is a job: import-jobs.ts). */
export async function importUsers(
  services: ImportServices,
  rawRows: Array<Record<string, unknown>>,
  options: UserImportOptions = {},
): Promise<UserImportReport> {
  const { entries, channelIds, channels } = await classifyUsers(services, rawRows, options);
  const report: UserImportReport = { added: [], alreadyExisting: [], notAdded: [], updated: [], ...channels };
  for (const entry of entries) if (entry.action === 'report') report[entry.outcome].push(entry.data);
  const fresh = entries.flatMap((entry) => (entry.action === 'add' ? [entry.row] : []));
  const updates = entries.flatMap((entry) => (entry.action === 'update' ? [entry.row] : []));

  for (let i = 0; i < fresh.length; i += PARALLEL_HASHES) {
    // In the file's order, whichever hash is done first.
    const added = await Promise.all(
      fresh.slice(i, i + PARALLEL_HASHES).map(async (row) => {
        const hash = await services.hashPool.hash(String(row.password));
        return addImportedUser(services, row, hash, channelIds);
      }),
    );
    report.added.push(...added);
  }

  const rightsChanged: number[] = [];
  for (const row of updates) {
    const password = passwordOf(row);
    const hash = password === undefined ? undefined : await services.hashPool.hash(password);
    const done = await updateImportedUser(services, row, hash, channelIds, options.actorId);
    if (!done) continue;
    report[done.outcome].push(done.data);
    if (done.rightsChanged !== undefined) rightsChanged.push(done.rightsChanged);
  }
  if (report.updated.length > 0)
    services.events.emit('membershipChanged', { userIds: report.updated.map((row) => Number(row.id)) });
  if (rightsChanged.length > 0) services.events.emit('rightsChanged', { userIds: rightsChanged });
  return report;
}

/**
 * The channels named in the rows' `canal` cells, by name. A name that matches no channel (even by its room key,
 * which ignores spaces) is reported, or created when `create` is set.
 */
async function channelsOf(
  rows: UserImportRow[],
  services: ImportServices,
  options: UserImportOptions,
  report: Pick<UserImportReport, 'unknownChannels' | 'createdChannels'>,
): Promise<ChannelIds> {
  const create = options.createChannels === true;
  const names = [...new Set(rows.flatMap((row) => splitChannelNames(row.canal)))];
  const ids = await services.memberships.channelIdsByNames(names);
  const created: Array<{ id: number; name: string }> = [];
  for (const name of names) {
    if (ids.has(name)) continue;
    const twin = await services.channels.byRtcSession(rtcSessionOf(name));
    if (twin) ids.set(name, twin.id);
    else if (!create) report.unknownChannels.push(name);
    else {
      const channel = await services.channels.create(name);
      ids.set(name, channel.id);
      created.push(channel);
      report.createdChannels.push(channel.name);
    }
  }
  if (created.length > 0) {
    if (options.actorId !== undefined)
      await services.activities.recordForChannels('channel_creation', options.actorId, created);
    services.events.emit('channelChanged', { userIds: [] });
  }
  return ids;
}
