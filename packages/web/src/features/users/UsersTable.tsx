/**
 * The users table (spec section 2), shared by /usersList and the dashboard.
 * Props:
 *   variant  'full' (default): first name, last name, login, pseudo, role (issue 58), status (issue 49), map access, created at,
 *            last activity, edit/delete; toolbar with Add User, search, the status filter, Import, Export and
 *            'Download model'.
 *            'dashboard': Firstname, Lastname, Login, Pseudo, Action; toolbar with the search only.
 *   title    optional heading shown at the left of the toolbar.
 * It loads the users itself (getAllUsers), follows the server's pushes, and owns its Add, Edit (with the
 * administrator's password gate) and Delete dialogs. Sortable; the search matches a substring of the whole row;
 * 5 rows per page by default (5, 10, 25, 50). The full list ticks rows for bulk actions (BulkUserActions).
 */

import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import AddIcon from '@mui/icons-material/PersonAddAlt1';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { Activity, Role, User, UserSortField } from '@talkgroup/protocol';
import { displayNameOf, knownRole } from '@talkgroup/protocol';
import type { MRT_ColumnDef, MRT_Row } from 'material-react-table';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type MemberStatusEntry, statusLabel, useMemberStatuses } from '../../api/statuses.ts';
import { ConsoleTable, EditDeleteActions, useListTexts } from '../../components/table/ConsoleTable.tsx';
import { dateTimeText } from '../../components/table/dateText.ts';
import { PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { useUserTable } from '../../components/table/useUserTable.ts';
import { type ActivityT, activityNames, activitySentence } from '../../engines/activities/index.ts';
import { PrivateCallButton } from '../../engines/calls/index.ts';
import { DownloadModelButton, ExportButton, ImportButton } from '../../engines/import-export/index.ts';
import { PositionExportButton } from '../../engines/tracking/index.ts';
import { AccountAccessButton } from './AccountAccessButton.tsx';
import { AddUserDialog } from './AddUserDialog.tsx';
import { BulkUserActions } from './BulkUserActions.tsx';
import { DeleteUserConfirm } from './DeleteUserConfirm.tsx';
import { useLiveUsers } from './directory.ts';
import { EditUserDialog } from './EditUserDialog.tsx';
import { ResetSecondFactorButton } from './ResetSecondFactorButton.tsx';
import { matchesStatus, type StatusFilter, usePagedRoleFilter, usePagedStatusFilter } from './statusFilter.ts';
import { UserSessionsButton } from './UserSessionsButton.tsx';
import { type RoleFilter, RoleFilterSelect } from './userRole.tsx';
import { StatusFilterSelect, UserStatusCell } from './userStatus.tsx';

export interface UsersTableProps {
  variant?: 'full' | 'dashboard';
  title?: ReactNode;
}

interface UserRow {
  id: number;
  firstName: string;
  lastName: string;
  identifier: string;
  pseudo: string;
  mapRight: boolean;
  createdAt: number;
  createdText: string;
  lastActivityAt: number;
  lastActivityText: string;
  lastActivityDate: string;
  name: string;
  /** "Disabled" for an account turned off, else empty. */
  disabledText: string;
  /** Its status now (issue 49), live. */
  status: MemberStatusEntry | undefined;
  statusText: string;
  /** Its role, in the reader's language (issue 58). */
  roleText: string;
  user: User;
}

/** The server's sort field of each column (a table paged on the server, issue 18). */
const SORT_FIELDS: Partial<Record<string, UserSortField>> = {
  firstName: 'firstName',
  lastName: 'lastName',
  identifier: 'identifier',
  pseudo: 'pseudo',
  mapRight: 'mapRight',
  createdAt: 'createdAt',
  lastActivityAt: 'lastActivity',
  roleText: 'role',
};

/**
 * The full list's cells a little tighter (6 px aside, not 10) and its headers on two lines when they have two
 * words: with the role column, the table fits a 1,216 px card (1280 px screen) (issue 58).
 */
const FULL_TABLE_SX = {
  '& .MuiTableCell-root': { px: 0.75 },
  '& .MuiTableCell-head, & .Mui-TableHeadCell-Content-Wrapper': { whiteSpace: 'normal' },
} as const;

export function UsersTable({ variant = 'full', title }: UsersTableProps) {
  const { t, i18n } = useTranslation(['users', 'common']);
  const full = variant === 'full';
  const texts = useListTexts('users');
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('all');
  const [roleFilter, setRoleFilter] = useState<RoleFilter>('all');
  const users = useUserTable(full ? 'selection' : 'list', PAGE_SIZES, SORT_FIELDS, {
    statusId: statusFilter === 'all' ? undefined : statusFilter === 'none' ? null : statusFilter,
    ...(roleFilter === 'all' ? {} : { role: roleFilter }),
  });
  useLiveUsers();
  usePagedStatusFilter(users.server, statusFilter);
  usePagedRoleFilter(users.server, roleFilter);
  const { t: tActivity } = useTranslation('activity');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const statuses = useMemberStatuses({ enabled: full });

  const language = i18n.resolvedLanguage;
  const sentenceOf = useMemo(() => activitySentences(tActivity), [tActivity]);
  const rows = useMemo<UserRow[]>(
    () =>
      users.users.map((user) => {
        const activity = user.userActivities[0];
        const status = statuses.get(user.id);
        return {
          id: user.id,
          firstName: user.firstName,
          lastName: user.lastName,
          identifier: user.identifier,
          pseudo: user.pseudo,
          mapRight: user.mapRight,
          createdAt: Date.parse(user.createdAt),
          createdText: dateTimeText(user.createdAt, language),
          lastActivityAt: activity ? Date.parse(activity.createdAt) : 0,
          lastActivityText: activity ? sentenceOf(activity) : '',
          lastActivityDate: activity ? dateTimeText(activity.createdAt, language) : '',
          name: displayNameOf(user),
          disabledText: user.disabled ? t('users:access.disabled') : '',
          status,
          statusText: status ? statusLabel(status.status, language) : '',
          // A role this version does not know (a newer server's) is shown as stored.
          roleText: knownRole(user.role) ? t(`users:form.roles.${knownRole(user.role) as Role}`) : user.role,
          user,
        };
      }),
    [users.users, language, sentenceOf, t, statuses],
  );
  // Past USERS_PAGED_ABOVE users the server filters the pages.
  const paged = users.server !== undefined;
  const shownRows = useMemo(
    () =>
      paged
        ? rows
        : rows.filter(
            (row) => matchesStatus(statusFilter, row.status) && (roleFilter === 'all' || row.user.role === roleFilter),
          ),
    [rows, statusFilter, roleFilter, paged],
  );
  const searchText = useCallback(
    (row: UserRow) =>
      full
        ? `${row.firstName}\n${row.lastName}\n${row.identifier}\n${row.pseudo}\n${row.roleText}\n${row.statusText}\n${row.createdText}\n${row.lastActivityText}\n${row.lastActivityDate}`
        : `${row.firstName}\n${row.lastName}\n${row.identifier}\n${row.pseudo}`,
    [full],
  );
  const columns = useMemo<MRT_ColumnDef<UserRow>[]>(() => {
    // The full list's columns add up to under 1,200 px (issue 58: 1,548 px in a 1,300 px card hid "Appel" and
    // the actions): sizes are minimum widths, long words break, two-word headers wrap. Narrower, the table
    // scrolls inside its card.
    const names: MRT_ColumnDef<UserRow>[] = [
      { accessorKey: 'firstName', header: t('users:columns.firstName'), size: full ? 80 : 90, Cell: wrappedCell },
      { accessorKey: 'lastName', header: t('users:columns.lastName'), size: full ? 90 : 100, Cell: wrappedCell },
      { accessorKey: 'identifier', header: t('users:columns.login'), size: full ? 128 : 160, Cell: loginCell },
      { accessorKey: 'pseudo', header: t('users:columns.pseudo'), size: full ? 80 : 90, Cell: wrappedCell },
    ];
    if (!full) return names;
    return [
      ...names,
      { accessorKey: 'roleText', header: t('users:columns.role'), size: 112 },
      { accessorKey: 'statusText', header: t('users:columns.status'), size: 118, Cell: statusCell },
      { accessorKey: 'mapRight', header: t('users:columns.mapRight'), size: 70, Cell: mapRightCell },
      {
        accessorKey: 'createdAt',
        header: t('users:columns.createdAt'),
        size: 98,
        Cell: createdCell,
      },
      {
        accessorKey: 'lastActivityAt',
        header: t('users:columns.lastActivity'),
        size: 120,
        Cell: lastActivityCell,
      },
      { id: 'call', header: t('users:columns.call'), size: 56, enableSorting: false, Cell: callCell },
    ];
  }, [t, full]);

  // Kept while nothing they show changes: the table's toolbar is then not drawn again at each keystroke.
  const add = useMemo(
    () => (full ? { label: t('users:toolbar.add'), icon: <AddIcon />, onClick: () => setAdding(true) } : undefined),
    [full, t],
  );
  const tools = useMemo(
    () =>
      full ? (
        <>
          <StatusFilterSelect value={statusFilter} onChange={setStatusFilter} />
          <RoleFilterSelect value={roleFilter} onChange={setRoleFilter} />
          <ImportButton kind="users" />
          <ExportButton kind="users" />
          <DownloadModelButton />
        </>
      ) : null,
    [full, statusFilter, roleFilter],
  );

  return (
    <>
      {full && selected.length > 0 ? <BulkUserActions userIds={selected} onDone={() => setSelected([])} /> : null}
      <Box sx={full ? FULL_TABLE_SX : undefined}>
        <ConsoleTable<UserRow>
          rows={shownRows}
          columns={columns}
          searchText={searchText}
          query={users.query}
          server={users.server}
          texts={texts}
          title={title}
          selection={full ? { selected, onChange: setSelected, nameOf: (row) => row.name } : undefined}
          add={add}
          tools={tools}
          editDelete={{
            size: 90,
            nameOf: (row) => row.name,
            onEdit: (row) => setEditing(row.user),
            onDelete: (row) => setDeleting(row.user),
          }}
          // The full list adds the export of a user's positions (issue 28) and the reset of its second factor
          // (issue 38) to Edit and Delete.
          rowActions={
            full && texts.rowActions
              ? {
                  header: texts.rowActions.header,
                  size: 130,
                  render: (row) => (
                    <Box
                      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
                      onClick={(event) => event.stopPropagation()}
                    >
                      <EditDeleteActions
                        editLabel={texts.rowActions?.edit(row.name) ?? ''}
                        deleteLabel={texts.rowActions?.delete(row.name) ?? ''}
                        onEdit={() => setEditing(row.user)}
                        onDelete={() => setDeleting(row.user)}
                      />
                      <PositionExportButton target={{ userIds: [row.id], name: row.name }} />
                      <UserSessionsButton userId={row.id} name={row.name} />
                      <ResetSecondFactorButton userId={row.id} name={row.name} />
                      <AccountAccessButton userId={row.id} name={row.name} disabled={row.user.disabled} />
                    </Box>
                  ),
                }
              : undefined
          }
        />
      </Box>
      {full ? <AddUserDialog open={adding} onClose={() => setAdding(false)} /> : null}
      <EditUserDialog user={editing} variant={variant} onClose={() => setEditing(null)} />
      <DeleteUserConfirm user={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

/**
 * Activity sentences for thousands of rows: i18next builds each type's sentence once, with markers where the
 * names go; the names are then put in with a string replace (a full t() call per user is a visible pause at
 * 10,000 users).
 */
function activitySentences(t: ActivityT): (activity: Activity) => string {
  const USER = '\u2063u\u2063';
  const CHANNEL = '\u2063c\u2063';
  const ZONE = '\u2063z\u2063';
  const templates = new Map<string, string>();
  return (activity) => {
    const names = activityNames(t, activity);
    // A dispatch step or a status change names more than the user, channel and zone: written whole.
    if (activity.dispatch || activity.status) return activitySentence(t, activity, names);
    let template = templates.get(activity.type);
    if (template === undefined) {
      template = activitySentence(t, activity, { ...names, user: USER, channel: CHANNEL, zone: ZONE });
      templates.set(activity.type, template);
    }
    return template.split(USER).join(names.user).split(CHANNEL).join(names.channel).split(ZONE).join(names.zone);
  };
}

// Cell renderers: MRT calls them as functions, so they stay outside the component and render small components.
type CellProps = { row: MRT_Row<UserRow> };

function MapRightIcon({ granted }: { granted: boolean }) {
  const { t } = useTranslation('users');
  return granted ? (
    <CheckCircleIcon color="success" titleAccess={t('mapRight.yes')} fontSize="small" />
  ) : (
    <CancelIcon color="error" titleAccess={t('mapRight.no')} fontSize="small" />
  );
}

function LastActivity({ text, date }: { text: string; date: string }) {
  const { t } = useTranslation('users');
  if (!text)
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('noActivity')}
      </Typography>
    );
  return (
    <Box>
      <Typography variant="body2">{text}</Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {date}
      </Typography>
    </Box>
  );
}

/** The login, and "Disabled" beside an account an administrator turned off (issue 38). */
function loginCell({ row }: CellProps) {
  if (!row.original.disabledText)
    return (
      <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
        {row.original.identifier}
      </Box>
    );
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap', overflowWrap: 'anywhere' }}
    >
      {row.original.identifier}
      <Chip size="small" variant="outlined" color="warning" label={row.original.disabledText} />
    </Box>
  );
}
const mapRightCell = ({ row }: CellProps) => <MapRightIcon granted={row.original.mapRight} />;
const createdCell = ({ row }: CellProps) => <Box component="span">{row.original.createdText}</Box>;
/** A name or pseudo longer than its column breaks rather than widen the table. */
const wrappedCell = ({ cell }: { cell: { getValue: () => unknown } }) => (
  <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
    {String(cell.getValue() ?? '')}
  </Box>
);
const statusCell = ({ row }: CellProps) => (
  <UserStatusCell user={{ id: row.original.id, name: row.original.name }} entry={row.original.status} />
);
const lastActivityCell = ({ row }: CellProps) => (
  <LastActivity text={row.original.lastActivityText} date={row.original.lastActivityDate} />
);

/** "Private call" (issue 27); a click on it does not tick the row. */
const callCell = ({ row }: CellProps) => (
  <Box onClick={(event) => event.stopPropagation()}>
    <PrivateCallButton
      user={{ id: row.original.id, name: row.original.name, role: row.original.user.role }}
      shared={false}
    />
  </Box>
);
