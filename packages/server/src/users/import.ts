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
 *   the last administrator (`last_admin`).
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
  rtcSessionOf,
  splitChannelNames,
  USER_IMPORT_FIELDS,
  type UserImportRow,
} from '@talkgroup/protocol';
import type { Services } from '../services.ts';

/** Rows handed to the hash pool at once (it runs as many as it has workers: auth/hash-pool.ts). */
const PARALLEL_HASHES = 4;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Row = Record<string, unknown>;

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

const identifierOf = (row: UserImportRow) =>
  String(row.identifier ?? '')
    .trim()
    .toLowerCase();

/** Why a row cannot be imported; undefined when it can. A blank password is allowed for an update. */
function refusal(row: UserImportRow, services: Services, updating: boolean): Row | undefined {
  const empty = USER_IMPORT_FIELDS.find((field) => isBlank(row[field]) && !(field === 'password' && updating));
  if (empty) return { reason: 'empty_field', field: empty };
  const identifier = identifierOf(row);
  if (identifier.length < LOGIN_MIN || identifier.length > LOGIN_MAX || !EMAIL.test(identifier))
    return { reason: 'invalid_login', field: 'identifier' };
  if (parseMapRight(row.mapRight) === undefined) return { reason: 'bad_map_right', field: 'mapRight' };
  if (parseRoleCell(row.role) === null) return { reason: 'bad_role', field: 'role' };
  if (!isBlank(row.password) && services.passwordPolicy.problem(String(row.password)))
    return { reason: 'weak_password', field: 'password' };
  return undefined;
}

/** Never echo a password back. */
function shown(row: Row): Row {
  const { password: _, ...rest } = row;
  return rest;
}

export async function importUsers(
  services: Services,
  rawRows: Array<Record<string, unknown>>,
  options: UserImportOptions = {},
): Promise<UserImportReport> {
  const updateMode = options.mode === 'update';
  const report: UserImportReport = {
    added: [],
    alreadyExisting: [],
    notAdded: [],
    updated: [],
    unknownChannels: [],
    createdChannels: [],
  };
  const rows = dedupeUserRows(rawRows.map((row) => normaliseImportRow(row)));
  const existing = await services.users.existingIdentifiers([
    ...new Set(rows.map(identifierOf).filter((identifier) => identifier !== '')),
  ]);

  const fresh: UserImportRow[] = [];
  const updates: UserImportRow[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const identifier = identifierOf(row);
    const updating = updateMode && existing.has(identifier) && !seen.has(identifier);
    const refused = refusal(row, services, updating);
    if (refused) report.notAdded.push({ ...shown(row), ...refused });
    else if (seen.has(identifier)) report.alreadyExisting.push({ ...shown(row), reason: 'duplicate' });
    else if (existing.has(identifier) && !updateMode) report.alreadyExisting.push({ ...shown(row), reason: 'exists' });
    else (updating ? updates : fresh).push(row);
    if (!refused) seen.add(identifier);
  }

  const channelIds = await channelsOf([...fresh, ...updates], services, options, report);
  const idsOf = (row: UserImportRow) =>
    splitChannelNames(row.canal)
      .map((name) => channelIds.get(name))
      .filter((channelId): channelId is number => channelId !== undefined);

  for (let i = 0; i < fresh.length; i += PARALLEL_HASHES) {
    await Promise.all(
      fresh.slice(i, i + PARALLEL_HASHES).map(async (row) => {
        const id = await services.users.create({
          firstName: normalizeName(String(row.firstName)),
          lastName: normalizeName(String(row.lastName)),
          identifier: identifierOf(row),
          pseudo: normalizeName(String(row.pseudo)),
          password: String(row.password),
          passwordHash: await services.hashPool.hash(String(row.password)),
          mapRight: parseMapRight(row.mapRight) ?? false,
          role: parseRoleCell(row.role) ?? 'member',
        });
        await services.memberships.addUserToChannels(id, idsOf(row));
        report.added.push({ ...shown(row), id });
      }),
    );
  }

  const rolesChanged: number[] = [];
  for (const row of updates) {
    const current = await services.users.rowByIdentifier(identifierOf(row));
    if (!current) continue;
    const role = parseRoleCell(row.role) ?? current.role;
    if (role !== current.role) {
      if (current.id === options.actorId) {
        report.notAdded.push({ ...shown(row), reason: 'own_role', field: 'role' });
        continue;
      }
      if (!(await services.users.changeRole(current.id, role))) {
        report.notAdded.push({ ...shown(row), reason: 'last_admin', field: 'role' });
        continue;
      }
      rolesChanged.push(current.id);
    }
    const password = isBlank(row.password) ? undefined : String(row.password);
    await services.users.update(current.id, {
      firstName: normalizeName(String(row.firstName)),
      lastName: normalizeName(String(row.lastName)),
      pseudo: normalizeName(String(row.pseudo)),
      mapRight: parseMapRight(row.mapRight) ?? false,
      passwordHash: password === undefined ? undefined : await services.hashPool.hash(password),
    });
    await services.memberships.addUserToChannels(current.id, idsOf(row));
    if (password) {
      // A new password ends the user's sessions, as it does from the edit dialog.
      await services.sessions.revokeAll(current.id);
      services.events.emit('sessionsEnded', { userId: current.id, reason: 'password' });
    }
    report.updated.push({ ...shown(row), id: current.id });
  }
  if (report.updated.length > 0)
    services.events.emit('membershipChanged', { userIds: report.updated.map((row) => Number(row.id)) });
  if (rolesChanged.length > 0) services.events.emit('rolesChanged', { userIds: rolesChanged });
  return report;
}

/**
 * The channels named in the rows' `canal` cells, by name. A name that matches no channel (even by its room key,
 * which ignores spaces) is reported, or created when `create` is set.
 */
async function channelsOf(
  rows: UserImportRow[],
  services: Services,
  options: UserImportOptions,
  report: UserImportReport,
): Promise<Map<string, number>> {
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
