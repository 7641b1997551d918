/** Spec section 5's user import rules, applied on the server: the client is never trusted with them. */
import {
  dedupeUserRows,
  type ImportReport,
  isValidUserImportRow,
  normaliseImportRow,
  normalizeName,
  parseMapRight,
  splitChannelNames,
  type UserImportRow,
} from '@talkgroup/protocol';
import type { Services } from '../services.ts';

/** Hashing is the cost of an import; a few at once keeps both cores busy without starving requests. */
const PARALLEL_HASHES = 4;

export async function importUsers(
  services: Services,
  rawRows: Array<Record<string, unknown>>,
): Promise<ImportReport<Record<string, unknown>>> {
  const report: ImportReport<Record<string, unknown>> = { added: [], alreadyExisting: [], notAdded: [] };
  const rows = dedupeUserRows(rawRows.map((row) => normaliseImportRow(row)));
  const valid: UserImportRow[] = [];
  // A row whose password breaks the rule for new passwords is not added (like a row with a blank field).
  for (const row of rows)
    (isValidUserImportRow(row) && !services.passwordPolicy.problem(String(row.password))
      ? valid
      : report.notAdded
    ).push(row);

  const identifierOf = (row: UserImportRow) => String(row.identifier).trim().toLowerCase();
  const existing = await services.users.existingIdentifiers([...new Set(valid.map(identifierOf))]);
  const fresh: UserImportRow[] = [];
  for (const row of valid) {
    const identifier = identifierOf(row);
    if (existing.has(identifier)) report.alreadyExisting.push(row);
    else {
      existing.add(identifier); // a second row with the same login in this file
      fresh.push(row);
    }
  }

  const channelIds = await services.memberships.channelIdsByNames(fresh.flatMap((row) => splitChannelNames(row.canal)));
  for (let i = 0; i < fresh.length; i += PARALLEL_HASHES) {
    await Promise.all(
      fresh.slice(i, i + PARALLEL_HASHES).map(async (row) => {
        const id = await services.users.create({
          firstName: normalizeName(String(row.firstName)),
          lastName: normalizeName(String(row.lastName)),
          identifier: identifierOf(row),
          pseudo: normalizeName(String(row.pseudo)),
          password: String(row.password),
          mapRight: parseMapRight(row.mapRight) ?? false,
          role: 'member',
        });
        const ids = splitChannelNames(row.canal)
          .map((name) => channelIds.get(name))
          .filter((channelId): channelId is number => channelId !== undefined);
        await services.memberships.addUserToChannels(id, ids);
        const { password: _, ...shown } = row;
        report.added.push({ ...shown, id });
      }),
    );
  }
  // Never echo a password back.
  const hide = (row: Record<string, unknown>) => {
    const { password: _, ...shown } = row;
    return shown;
  };
  return {
    added: report.added,
    alreadyExisting: report.alreadyExisting.map(hide),
    notAdded: report.notAdded.map(hide),
  };
}
