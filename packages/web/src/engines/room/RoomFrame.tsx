/**
 * The frame of the four room pages (group call, mobile call, video room, user call view): the signed-out
 * gate of the pages outside the shell, and what shows before the room can: loading, renamed (the page
 * follows the channel's new room key), not found and load errors.
 */
import Alert, { type AlertColor } from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { ConnectionBanner } from '../../components/ConnectionBanner.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import type { RoomChannel } from './useRoomChannel.ts';

/** One notice in place of the room: an optional heading (the page's h1) over an alert. */
export function RoomNotice({
  title,
  severity,
  action,
  children,
  inShell = false,
  sx,
}: {
  title?: string;
  severity: AlertColor;
  action?: ReactNode;
  children: ReactNode;
  /** Under the shell, which has its own main landmark; outside it, the notice is the page's main. */
  inShell?: boolean;
  sx?: SxProps<Theme>;
}) {
  return (
    <Box component={inShell ? 'div' : 'main'} sx={sx}>
      {title ? (
        <Typography component="h1" variant="h1" sx={{ mb: 2 }}>
          {title}
        </Typography>
      ) : null}
      <Alert severity={severity} action={action}>
        {children}
      </Alert>
    </Box>
  );
}

/**
 * The pages outside the shell have no route guard (the token comes from the browser's storage): signed out,
 * they say so and offer the sign-in page instead of opening the room.
 */
export function SignedInRoom({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('room');
  const session = useSession();
  if (session) return children;
  return (
    <RoomNotice
      title={title}
      severity="info"
      sx={{ p: 2 }}
      action={
        <Button component={RouterLink} to="/signin">
          {t('mobileCall.signIn')}
        </Button>
      }
    >
      {t('mobileCall.signedOut')}
    </RoomNotice>
  );
}

/** What useRoom knows of the room's channel, and of its link to the server. */
export interface RoomChannelStatus {
  channel: RoomChannel | null;
  renamed: RoomChannel | null;
  channelLoading: boolean;
  notFound: boolean;
  channelError: unknown;
  /** The room was joined, then the link dropped: the page is coming back by itself. */
  reconnecting?: boolean;
}

/**
 * Renders `children` with the channel once it is known; until then the loader, and instead of it the
 * not-found or error notice. A renamed channel moves the page to its new room key under `basePath`.
 */
export function RoomFrame({
  room,
  basePath,
  inShell = false,
  children,
}: {
  room: RoomChannelStatus;
  /** The route of the page, up to the room key: '/join/'. */
  basePath: string;
  /** The group call view, under the shell: a titled notice with a way back to the channels. */
  inShell?: boolean;
  children: (channel: RoomChannel) => ReactNode;
}) {
  const { t } = useTranslation('room');
  if (room.renamed) return <Navigate to={`${basePath}${encodeURIComponent(room.renamed.rtcSession)}`} replace />;
  if (room.channelLoading) return <PageLoader fullScreen={!inShell} />;
  if (room.notFound || room.channelError || !room.channel) {
    const message = room.channelError
      ? errorMessage(room.channelError, t('groupCall.loadFailed'))
      : t('groupCall.notFound');
    if (!inShell) {
      return (
        <RoomNotice severity="error" sx={{ p: 2 }}>
          {message}
        </RoomNotice>
      );
    }
    return (
      <RoomNotice
        inShell
        title={t('groupCall.title')}
        severity="error"
        sx={{ maxWidth: 640 }}
        action={
          <Button component={RouterLink} to="/channelsList">
            {t('groupCall.back')}
          </Button>
        }
      >
        {message}
      </RoomNotice>
    );
  }
  return (
    <>
      <ConnectionBanner reconnecting={room.reconnecting ?? false} />
      {children(room.channel)}
    </>
  );
}
