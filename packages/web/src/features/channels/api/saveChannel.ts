/**
 * Add Channel / Update Channel (spec section 8): createChannel or updateChannel, then updateUserChannels when the
 * chosen members differ from the channel's. The zone of an area channel goes with the channel (issue 59).
 */
import {
  type Channel,
  type ChannelOverview,
  CreateChannel,
  type PreemptionMode,
  rtcSessionOf,
  UpdateChannel,
  UpdateUserChannels,
  type VideoAudience,
  type VoiceMode,
} from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { refreshDirectory } from '../../../api/directory.ts';

export interface SaveChannelInput {
  /** The channel to update; absent to create one. */
  channel?: Pick<ChannelOverview, 'id'> | null;
  /** The members the channel had when the dialog opened (getUserIds). */
  memberIds?: number[];
  channelName: string;
  userIds: number[];
  /** Voice history on or off (absent: unchanged, or on for a new channel). */
  recording?: boolean;
  /** One talker at a time (absent: unchanged, or on for a new channel). */
  floorControl?: boolean;
  /** Issue 59: a press on a busy floor waits in the queue (absent: unchanged, or on for a new channel). */
  floorQueue?: boolean;
  /** Issue 59: what a higher talk priority does (absent: unchanged, or `interrupt` for a new channel). */
  preemption?: PreemptionMode;
  /** Issue 61: who watches its live video (absent: unchanged, or `dispatch` for a new channel). */
  videoAudience?: VideoAudience;
  /** Through the media server, or always peer to peer (absent: unchanged, or the server for a new channel). */
  voiceMode?: VoiceMode;
  /** The geofence the channel follows, an area channel (issue 59); null: none; absent: unchanged, or none. */
  areaGeofenceId?: number | null;
}

export async function saveChannel({
  channel,
  memberIds = [],
  channelName,
  userIds,
  recording,
  floorControl,
  floorQueue,
  preemption,
  videoAudience,
  voiceMode,
  areaGeofenceId,
}: SaveChannelInput): Promise<Channel> {
  const saved = channel
    ? (
        await api(UpdateChannel, {
          channelId: channel.id,
          channelName,
          recording,
          floorControl,
          floorQueue,
          preemption,
          videoAudience,
          voiceMode,
          areaGeofenceId,
        })
      ).res
    : (
        await api(CreateChannel, {
          channelName,
          channelRtcSession: rtcSessionOf(channelName),
          recording,
          floorControl,
          floorQueue,
          preemption,
          videoAudience,
          voiceMode,
          areaGeofenceId,
        })
      ).res;
  const before = new Set(channel ? memberIds : []);
  const changed = userIds.length !== before.size || userIds.some((id) => !before.has(id));
  if (changed) await api(UpdateUserChannels, { userList: userIds, channelId: saved.id });
  return saved;
}

export function useSaveChannel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveChannel, onSuccess: () => refreshDirectory(queryClient) });
}
