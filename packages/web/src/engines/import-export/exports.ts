/**
 * The spreadsheets the console hands out (spec section 9): `Liste_coéquipiers.xlsx`, `Liste_canaux.xlsx` and the
 * import template `model.xlsx`. Their headers are the import columns, so an export can be imported again.
 * Never a password or a hash: the export calls do not return them, and the columns below do not ask for them.
 */
import { GetChannelsToExport, GetListUsersToExport, USER_IMPORT_COLUMNS } from '@talkgroup/protocol';
import { api } from '../../api/client.ts';
import { type SheetColumn, saveFile, writeXlsx } from './workbook.ts';

export const USERS_FILE = 'Liste_coéquipiers.xlsx';
export const CHANNELS_FILE = 'Liste_canaux.xlsx';
export const MODEL_FILE = 'model.xlsx';

const WIDTHS: Record<string, number> = { identifier: 32, canal: 36, createdAt: 20, mapRight: 12, password: 16 };
const column = (key: string): SheetColumn => ({ header: key, key, width: WIDTHS[key] ?? 20 });

export async function exportUsers(sheetName: string): Promise<number> {
  const { res } = await api(GetListUsersToExport, {});
  // The role and talk priority (issue 59) as the import's optional columns read them: blank, the role's default.
  const columns = [
    'firstName',
    'lastName',
    'identifier',
    'pseudo',
    'mapRight',
    'canal',
    'role',
    'talkPriority',
    'createdAt',
  ].map(column);
  const rows = res.map((user) => ({
    firstName: user.firstName,
    lastName: user.lastName,
    identifier: user.identifier,
    pseudo: user.pseudo,
    mapRight: user.mapRight,
    canal: user.canal,
    role: user.role,
    talkPriority: user.talkPriority,
    createdAt: user.createdAt,
  }));
  saveFile(await writeXlsx({ sheetName, columns, rows }), USERS_FILE);
  return rows.length;
}

export async function exportChannels(sheetName: string): Promise<number> {
  const { res } = await api(GetChannelsToExport, {});
  const rows = res.map((channel) => ({ name: channel.name, createdAt: channel.createdAt }));
  saveFile(await writeXlsx({ sheetName, columns: ['name', 'createdAt'].map(column), rows }), CHANNELS_FILE);
  return rows.length;
}

/** The user import template: the seven import columns and no row. */
export async function downloadUserModel(sheetName: string): Promise<void> {
  saveFile(await writeXlsx({ sheetName, columns: USER_IMPORT_COLUMNS.map(column), rows: [] }), MODEL_FILE);
}
