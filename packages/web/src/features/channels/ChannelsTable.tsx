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

import AddIcon from '@mui/icons-material/PlaylistAdd';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ChannelOverview } from '@talkgroup/protocol';
import type { MRT_ColumnDef, MRT_Row } from 'material-react-table';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useChannels, useLiveChannels } from '../../api/directory.ts';
import { useMay } from '../../api/session.ts';
import { ConsoleTable, useListTexts } from '../../components/table/ConsoleTable.tsx';
import { dateTimeText } from '../../components/table/dateText.ts';
import { ExportButton, ImportButton } from '../../engines/import-export/index.ts';
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
  channel: ChannelOverview;
}

/** Spec sections 2 and 3: the room page reads these to know which channel it shows. */
export function rememberChannel(channel: Pick<ChannelOverview, 'id' | 'name'>): void {
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
  // A dispatcher lists its own channels and enters their rooms; it manages none (protocol's roles.ts).
  const manage = useMay().may('channels.manage');
  const texts = useListTexts('channels');
  const navigate = useNavigate();
  const channels = useChannels();
  useLiveChannels();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ChannelOverview | null>(null);
  const [deleting, setDeleting] = useState<ChannelOverview | null>(null);

  const language = i18n.resolvedLanguage;
  const rows = useMemo<ChannelRow[]>(
    () =>
      (channels.data?.res ?? []).map((channel) => ({
        id: channel.id,
        name: channel.name,
        rtcSession: channel.rtcSession,
        connected: channel.connected,
        total: channel.usersCount,
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

  return (
    <>
      <ConsoleTable<ChannelRow>
        rows={rows}
        columns={columns}
        searchText={searchText}
        query={channels}
        texts={texts}
        title={title}
        add={
          full && manage
            ? { label: t('channels:toolbar.add'), icon: <AddIcon />, onClick: () => setAdding(true) }
            : undefined
        }
        tools={
          full && manage ? (
            <>
              <ImportButton kind="channels" />
              <ExportButton kind="channels" />
            </>
          ) : null
        }
        editDelete={
          manage
            ? {
                size: 110,
                nameOf: (row) => row.name,
                onEdit: (row) => setEditing(row.channel),
                onDelete: (row) => setDeleting(row.channel),
              }
            : undefined
        }
        options={{
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
        }}
      />
      {full && manage ? <ChannelDialog open={adding} onClose={() => setAdding(false)} /> : null}
      {manage ? <ChannelDialog open={editing !== null} channel={editing} onClose={() => setEditing(null)} /> : null}
      {manage ? <DeleteChannelConfirm channel={deleting} onClose={() => setDeleting(null)} /> : null}
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
