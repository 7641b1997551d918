/**
 * A vertical timeline of activities, latest first: an icon per type on a line, the sentence and the date
 * ('dd MMM yyyy HH:mm' in the reader's language). The dashboard shows one, the Activities page three columns.
 */

import AddCircleOutlineOutlined from '@mui/icons-material/AddCircleOutlineOutlined';
import Badge from '@mui/icons-material/Badge';
import CallOutlined from '@mui/icons-material/CallOutlined';
import CancelOutlined from '@mui/icons-material/CancelOutlined';
import ChatBubbleOutlineOutlined from '@mui/icons-material/ChatBubbleOutlineOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExitToApp from '@mui/icons-material/ExitToApp';
import FenceOutlined from '@mui/icons-material/FenceOutlined';
import GraphicEq from '@mui/icons-material/GraphicEq';
import GroupAdd from '@mui/icons-material/GroupAdd';
import History from '@mui/icons-material/History';
import HubOutlined from '@mui/icons-material/HubOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import Login from '@mui/icons-material/Login';
import Logout from '@mui/icons-material/Logout';
import MarkChatReadOutlined from '@mui/icons-material/MarkChatReadOutlined';
import MicNone from '@mui/icons-material/MicNone';
import PersonOff from '@mui/icons-material/PersonOff';
import PhoneForwarded from '@mui/icons-material/PhoneForwarded';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Sos from '@mui/icons-material/Sos';
import SupportAgent from '@mui/icons-material/SupportAgent';
import TaskAlt from '@mui/icons-material/TaskAlt';
import TimerOff from '@mui/icons-material/TimerOff';
import TravelExplore from '@mui/icons-material/TravelExplore';
import Undo from '@mui/icons-material/Undo';
import WifiOff from '@mui/icons-material/WifiOff';
import Box from '@mui/material/Box';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import type { Activity, ActivityType } from '@talkgroup/protocol';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ActivitySentence } from '../../engines/activities/ActivitySentence.tsx';
import { formatDate } from '../../i18n/dates.ts';

type Tone = 'primary' | 'secondary' | 'info' | 'error' | 'success' | 'grey';

const LOOK: Record<ActivityType, { icon: ComponentType<SvgIconProps>; tone: Tone }> = {
  login: { icon: Login, tone: 'success' },
  logout: { icon: Logout, tone: 'grey' },
  channel_creation: { icon: AddCircleOutlineOutlined, tone: 'primary' },
  channel_update: { icon: EditOutlined, tone: 'primary' },
  channel_delete: { icon: DeleteOutlined, tone: 'error' },
  message_send: { icon: ChatBubbleOutlineOutlined, tone: 'info' },
  image_send: { icon: ImageOutlined, tone: 'info' },
  message_read: { icon: MarkChatReadOutlined, tone: 'info' },
  channel_join: { icon: GroupAdd, tone: 'primary' },
  channel_talk: { icon: MicNone, tone: 'secondary' },
  channel_leave: { icon: ExitToApp, tone: 'grey' },
  position_update: { icon: PlaceOutlined, tone: 'grey' },
  position_get: { icon: TravelExplore, tone: 'grey' },
  connexion_lost: { icon: WifiOff, tone: 'error' },
  emergency: { icon: Sos, tone: 'error' },
  emergency_close: { icon: Sos, tone: 'success' },
  voice_message: { icon: GraphicEq, tone: 'secondary' },
  geofence_enter: { icon: FenceOutlined, tone: 'info' },
  geofence_exit: { icon: FenceOutlined, tone: 'secondary' },
  area_enter: { icon: FenceOutlined, tone: 'info' },
  area_exit: { icon: FenceOutlined, tone: 'secondary' },
  channel_patch: { icon: HubOutlined, tone: 'primary' },
  channel_unpatch: { icon: LinkOffOutlined, tone: 'grey' },
  private_call: { icon: CallOutlined, tone: 'secondary' },
  dispatch_request: { icon: SupportAgent, tone: 'info' },
  dispatch_take: { icon: SupportAgent, tone: 'primary' },
  dispatch_return: { icon: Undo, tone: 'grey' },
  dispatch_transfer: { icon: PhoneForwarded, tone: 'secondary' },
  dispatch_close: { icon: TaskAlt, tone: 'success' },
  dispatch_cancel: { icon: CancelOutlined, tone: 'grey' },
  dispatch_abandon: { icon: PersonOff, tone: 'error' },
  dispatch_expire: { icon: TimerOff, tone: 'error' },
  status_change: { icon: Badge, tone: 'info' },
};
const FALLBACK = { icon: History, tone: 'grey' as Tone };

const toneColor = (tone: Tone) => (tone === 'grey' ? 'text.secondary' : `${tone}.main`);

export interface ActivityTimelineProps {
  activities: Activity[];
  /** Accessible name of the list. */
  label?: string;
}

export function ActivityTimeline({ activities, label }: ActivityTimelineProps) {
  const { i18n } = useTranslation('activity');
  const language = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Box component="ol" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {activities.map((activity, index) => {
        const look = LOOK[activity.type] ?? FALLBACK;
        const Icon = look.icon;
        const last = index === activities.length - 1;
        return (
          <Box
            component="li"
            key={activity.id}
            sx={{ display: 'grid', gridTemplateColumns: '32px 1fr', columnGap: 1.5, position: 'relative' }}
          >
            {last ? null : (
              <Box
                aria-hidden
                sx={{
                  position: 'absolute',
                  left: 15,
                  top: 34,
                  bottom: 2,
                  width: 2,
                  bgcolor: 'divider',
                  borderRadius: 1,
                }}
              />
            )}
            <Box
              aria-hidden
              sx={{
                width: 32,
                height: 32,
                borderRadius: '50%',
                display: 'grid',
                placeItems: 'center',
                color: toneColor(look.tone),
                bgcolor: 'background.paper',
                border: 2,
                borderColor: 'currentColor',
                mt: 0.25,
              }}
            >
              <Icon sx={{ fontSize: 17 }} />
            </Box>
            <Box sx={{ pb: last ? 0 : 2, minWidth: 0 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere', lineHeight: 1.45 }}>
                <ActivitySentence activity={activity} />
              </Typography>
              <Typography
                variant="caption"
                component="time"
                dateTime={activity.createdAt}
                sx={{ color: 'text.secondary', display: 'block', mt: 0.25 }}
              >
                {formatDate(activity.createdAt, undefined, language)}
              </Typography>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
