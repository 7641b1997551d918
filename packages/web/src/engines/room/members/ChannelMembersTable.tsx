/**
 * The channel users table beside the map (spec section 2): sortable by name, a filter box, a connected
 * indicator; under each name its status with its age and, for a dispatcher, "Statut de {name}" (issue 49). Clicking a row centres the map on the member, or says 'Unknown location' when its position
 * is not known. Spec section 9: up to 1000 rows per page, with no choice.
 */
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { MaterialReactTable, type MRT_ColumnDef } from 'material-react-table';
import { createContext, useCallback, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAliasLabels } from '../../../api/aliases.ts';
import { useMay } from '../../../api/session.ts';
import { type MemberStatusEntry, statusLabel, useMemberStatuses } from '../../../api/statuses.ts';
import { AliasTag } from '../../../components/AliasTag.tsx';
import { StatusChip } from '../../../components/StatusChip.tsx';
import { SearchField } from '../../../components/table/SearchField.tsx';
import { useConsoleTable } from '../../../components/table/useConsoleTable.ts';
import { useRowSearch } from '../../../components/table/useRowSearch.ts';
import { visuallyHidden } from '../../../components/visuallyHidden.ts';
import { PrivateCallButton } from '../../calls/index.ts';
import { MemberStatusButton } from '../../statuses/index.ts';
import { type ChannelMember, memberName } from './useChannelMembers.ts';

const PAGE_SIZE = 1000;

export function ConnectedDot({ member }: { member: ChannelMember }) {
  const { t } = useTranslation('room');
  const label = member.inChannel ? t('members.inChannel') : member.online ? t('members.online') : t('members.offline');
  const color = member.inChannel ? '#1e7d3a' : member.online ? '#a35a00' : '#8a97a3';
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }} title={label}>
      <FiberManualRecordIcon sx={{ color, fontSize: 14 }} aria-hidden />
      <Box component="span" sx={visuallyHidden}>
        {label}
      </Box>
    </Box>
  );
}

type CellProps = { row: { original: ChannelMember } };

/** "Private call" when the signed-in user may call this member (issue 27); a click does not select the row. */
function CallCell({ row }: CellProps) {
  const { user } = row.original;
  return (
    <Box onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
      <PrivateCallButton user={{ id: user.id, name: memberName(user), role: user.role }} shared />
    </Box>
  );
}

function ConnectedCell({ row }: CellProps) {
  return <ConnectedDot member={row.original} />;
}

/** The members' statuses, for the status cells (MRT calls cells as functions defined once: they read them here). */
const StatusesContext = createContext<ReadonlyMap<number, MemberStatusEntry>>(new Map());

/** Under the name: the member's status (when any) and, for a dispatcher, its menu; a click does not select the row. */
function StatusLine({ member }: { member: ChannelMember }) {
  const entry = useContext(StatusesContext).get(member.user.id);
  const dispatches = useMay().somewhere('channel.dispatch');
  if (!entry && !dispatches) return null;
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0, mt: 0.25 }}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
    >
      {entry ? <StatusChip status={entry.status} since={entry.since} setBy={entry.setBy} /> : null}
      <MemberStatusButton
        user={{ id: member.user.id, name: memberName(member.user) }}
        statusId={entry?.status.id ?? null}
      />
    </Box>
  );
}

function NameCell({ row }: CellProps) {
  // Its functional aliases (issue 59) beside the name: one cached query for every row.
  const alias = useAliasLabels().get(row.original.user.id);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, fontSize: '0.9rem' }} noWrap>
          {memberName(row.original.user)}
        </Typography>
        <AliasTag alias={alias} />
      </Box>
      {row.original.user.pseudo ? (
        <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap>
          {row.original.user.pseudo}
        </Typography>
      ) : null}
      <StatusLine member={row.original} />
    </Box>
  );
}

function statusText(entry: MemberStatusEntry | undefined, language: string | undefined): string {
  return entry ? statusLabel(entry.status, language) : '';
}

export interface ChannelMembersTableProps {
  members: ChannelMember[];
  isLoading: boolean;
  onSelect: (member: ChannelMember) => void;
}

export function ChannelMembersTable({ members, isLoading, onSelect }: ChannelMembersTableProps) {
  const { t, i18n } = useTranslation('room');
  const statuses = useMemberStatuses();
  const language = i18n.resolvedLanguage;
  const textOf = useCallback(
    (member: ChannelMember) =>
      [
        memberName(member.user),
        member.user.pseudo,
        member.user.firstName,
        member.user.lastName,
        member.user.identifier,
        statusText(statuses.get(member.user.id), language),
      ].join(' '),
    [statuses, language],
  );
  const { query, setQuery, filtered } = useRowSearch(members, textOf);

  const columns = useMemo<MRT_ColumnDef<ChannelMember>[]>(
    () => [
      {
        id: 'connected',
        header: t('members.connected'),
        accessorFn: (member) => (member.inChannel ? 2 : member.online ? 1 : 0),
        enableSorting: false,
        size: 60,
        Cell: ConnectedCell,
      },
      {
        id: 'name',
        header: t('members.name'),
        accessorFn: (member) => memberName(member.user),
        sortingFn: (a, b) => a.getValue<string>('name').localeCompare(b.getValue<string>('name')),
        Cell: NameCell,
      },
      {
        id: 'call',
        header: t('members.call'),
        enableSorting: false,
        size: 70,
        Cell: CallCell,
      },
    ],
    [t],
  );

  const table = useConsoleTable<ChannelMember>({
    columns,
    data: filtered,
    state: { isLoading },
    // While loading, MRT renders skeleton rows made of empty objects.
    getRowId: (member, index) => (member.user ? String(member.user.id) : `loading-${index}`),
    enableSorting: true,
    enablePagination: false,
    enableBottomToolbar: false,
    enableRowVirtualization: filtered.length > 100,
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE }, sorting: [{ id: 'name', desc: false }] },
    renderTopToolbar: () => (
      <Box sx={{ p: 1.5, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h3" variant="h6" sx={{ flex: 1, minWidth: 120 }}>
          {t('members.title')}
        </Typography>
        <SearchField
          initialValue={query}
          onChange={setQuery}
          label={t('members.filter')}
          placeholder={t('members.filterPlaceholder')}
          clearLabel={t('members.clearFilter')}
        />
      </Box>
    ),
    renderEmptyRowsFallback: () => (
      <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}>
        {query ? t('members.noMatch') : t('members.empty')}
      </Typography>
    ),
    muiTableContainerProps: { sx: { maxHeight: 360 } },
    enableStickyHeader: true,
    muiTableBodyRowProps: ({ row }) => ({
      onClick: () => onSelect(row.original),
      onKeyDown: (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onSelect(row.original);
        }
      },
      tabIndex: 0,
      title: t('members.locate'),
      sx: { cursor: 'pointer' },
    }),
  });

  return (
    <StatusesContext value={statuses}>
      <MaterialReactTable table={table} />
    </StatusesContext>
  );
}
