/**
 * The channels table (spec section 2), shared by /channelsList and the dashboard.
 * Props:
 *   variant  'full' (default): channel name, users as connected/total (live), created at, edit/delete; toolbar
 *            with Add Channel, search, Import and Export.
 *            'dashboard': channel name, users, Action; toolbar with the search only.
 *   title    optional heading shown at the left of the toolbar.
 * It loads the channels itself (getAllChannels) and follows the server's pushes (onUserStatusChanged,
 * onChannelsChanged, ...), so the connected counts move as members join and leave. A row click keeps the
 * channel's name and id in localStorage and opens /groupCallView/{rtcSession}.
 */

import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import AddIcon from '@mui/icons-material/PlaylistAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Channel } from '@talkgroup/protocol';
import { MaterialReactTable, type MRT_ColumnDef, type MRT_Row } from 'material-react-table';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useChannels, useLiveChannels } from '../../api/directory.ts';
import { dateTimeText } from '../../components/table/dateText.ts';
import { SearchField } from '../../components/table/SearchField.tsx';
import { useConsoleTable } from '../../components/table/useConsoleTable.ts';
import { ExportButton, ImportButton } from '../import-export/index.ts';
import { ChannelDialog } from './ChannelDialog.tsx';
import { ConnectedCount } from './ConnectedCount.tsx';
import { DeleteChannelConfirm } from './DeleteChannelConfirm.tsx';

export interface ChannelsTableProps {
  variant?: 'full' | 'dashboard';
  title?: ReactNode;
}

interface ChannelRow {
  id: number;
  name: string;
  rtcSession: string;
  connected: number;
  total: number;
  createdAt: number;
  createdText: string;
  channel: Channel;
}

/** Spec sections 2 and 3: the room page reads these to know which channel it shows. */
export function rememberChannel(channel: Pick<Channel, 'id' | 'name'>): void {
  try {
    localStorage.setItem('channelName', channel.name);
    localStorage.setItem('channelId', String(channel.id));
  } catch {
    // storage disabled: the room still opens from its URL
  }
}

export function ChannelsTable({ variant = 'full', title }: ChannelsTableProps) {
  const { t, i18n } = useTranslation(['channels', 'common']);
  const full = variant === 'full';
  const navigate = useNavigate();
  const channels = useChannels();
  useLiveChannels();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Channel | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);

  const language = i18n.resolvedLanguage;
  const rows = useMemo<ChannelRow[]>(
    () =>
      (channels.data?.res ?? []).map((channel) => ({
        id: channel.id,
        name: channel.name,
        rtcSession: channel.rtcSession,
        connected: channel.connected,
        total: channel.users.length,
        createdAt: Date.parse(channel.createdAt),
        createdText: dateTimeText(channel.createdAt, language),
        channel,
      })),
    [channels.data, language],
  );
  const searchText = useCallback(
    (row: ChannelRow) => `${row.name}\n${row.connected}/${row.total}\n${row.createdText}`,
    [],
  );
  const [query, setQuery] = useState('');

  const open = (row: ChannelRow) => {
    rememberChannel(row);
    navigate(`/groupCallView/${encodeURIComponent(row.rtcSession)}`);
  };

  const columns = useMemo<MRT_ColumnDef<ChannelRow>[]>(() => {
    const list: MRT_ColumnDef<ChannelRow>[] = [
      { accessorKey: 'name', header: t('channels:columns.name'), Cell: nameCell },
      { id: 'users', accessorFn: (row) => row.total, header: t('channels:columns.users'), size: 120, Cell: usersCell },
    ];
    if (!full) return list;
    return [...list, { accessorKey: 'createdAt', header: t('channels:columns.createdAt'), Cell: createdCell }];
  }, [t, full]);

  const stop = (event: React.MouseEvent) => event.stopPropagation();

  const table = useConsoleTable<ChannelRow>({
    columns,
    data: rows,
    search: { query, textOf: searchText },
    getRowId: (row) => String(row.id),
    enableRowActions: true,
    displayColumnDefOptions: { 'mrt-row-actions': { header: t('channels:columns.actions'), size: 110 } },
    renderRowActions: ({ row }) => (
      <Box sx={{ display: 'flex', gap: 0.5 }} onClick={stop}>
        <Tooltip title={t('channels:row.edit', { name: row.original.name })}>
          <IconButton
            size="small"
            aria-label={t('channels:row.edit', { name: row.original.name })}
            onClick={() => setEditing(row.original.channel)}
          >
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('channels:row.delete', { name: row.original.name })}>
          <IconButton
            size="small"
            color="error"
            aria-label={t('channels:row.delete', { name: row.original.name })}
            onClick={() => setDeleting(row.original.channel)}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    ),
    muiTableBodyRowProps: ({ row }) => ({
      onClick: () => open(row.original),
      onKeyDown: (event) => {
        if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          open(row.original);
        }
      },
      tabIndex: 0,
      'aria-label': t('channels:row.open', { name: row.original.name }),
      sx: { cursor: 'pointer' },
    }),
    state: { isLoading: channels.isPending },
    renderTopToolbarCustomActions: () => (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, width: '100%' }}>
        {title ? (
          <Typography variant="h6" component="h2" sx={{ mr: 'auto' }}>
            {title}
          </Typography>
        ) : null}
        {full ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
            {t('channels:toolbar.add')}
          </Button>
        ) : null}
        <SearchField
          value={query}
          onChange={setQuery}
          label={t('channels:toolbar.searchLabel')}
          placeholder={t('channels:toolbar.search')}
          clearLabel={t('channels:toolbar.clearSearch')}
        />
        {full ? (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, ml: { md: 'auto' } }}>
            <ImportButton kind="channels" />
            <ExportButton kind="channels" />
          </Box>
        ) : null}
      </Box>
    ),
    renderEmptyRowsFallback: () => (
      <Typography sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }}>
        {query.trim() && rows.length > 0 ? t('channels:noMatch', { query: query.trim() }) : t('channels:empty')}
      </Typography>
    ),
  });

  return (
    <>
      {channels.isError ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => channels.refetch()}>
              {t('common:actions.retry')}
            </Button>
          }
        >
          {t('channels:loadError')}
        </Alert>
      ) : null}
      <MaterialReactTable table={table} />
      {full ? <ChannelDialog open={adding} onClose={() => setAdding(false)} /> : null}
      <ChannelDialog open={editing !== null} channel={editing} onClose={() => setEditing(null)} />
      <DeleteChannelConfirm channel={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

// Cell renderers: MRT calls them as functions, so they stay outside the component.
type CellProps = { row: MRT_Row<ChannelRow> };
const nameCell = ({ row }: CellProps) => (
  <Typography variant="body2" sx={{ fontWeight: 600 }}>
    {row.original.name}
  </Typography>
);
const usersCell = ({ row }: CellProps) => (
  <ConnectedCount connected={row.original.connected} total={row.original.total} />
);
const createdCell = ({ row }: CellProps) => (
  <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
    {row.original.createdText}
  </Box>
);
