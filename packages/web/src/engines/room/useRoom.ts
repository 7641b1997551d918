/**
 * Everything a room view runs, in one place for the group call view and the mobile call view: the channel,
 * the server configuration, the page's socket, the voice room (with each mic change reported over HTTP),
 * the channel's members and its chat.
 */
import {
  ConnectAdminToChannel,
  displayNameOf,
  GetChannelOverviews,
  GetMyChannels,
  may as protocolMay,
  UpdateUserMicState,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { api } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { useMay, useSession } from '../../api/session.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { useTransmissionRecorder, useVoiceProcessing, useVoiceRoom } from '../voice/index.ts';
import { useChat } from './chat/useChat.ts';
import { useChannelMembers } from './members/useChannelMembers.ts';
import { useRoomChannel } from './useRoomChannel.ts';
import { useRoomSocket } from './useRoomSocket.ts';

export function useRoom(roomId: string | undefined, { video = false }: { video?: boolean } = {}) {
  const session = useSession();
  const me = session?.user ?? null;
  const { may } = useMay();
  /** Manages channels (reads every one, sets their members): an administrator. */
  const manageChannels = may('channels.manage');
  const name = me ? displayNameOf(me) : '';
  const {
    channel,
    channels,
    renamed,
    isLoading: channelLoading,
    notFound,
    error: channelError,
  } = useRoomChannel(roomId, { all: manageChannels });
  const config = useClientConfig();
  const { socket, connected } = useRoomSocket(session?.token);
  const [voiceProcessing, setVoiceProcessing] = useVoiceProcessing();

  const userId = me?.id;
  const channelName = channel?.name;
  const reportMicState = useCallback(
    (on: boolean) =>
      userId !== undefined && channelName
        ? api(UpdateUserMicState, { userId, micState: on, channelName })
        : Promise.resolve(undefined),
    [userId, channelName],
  );

  const recorder = useTransmissionRecorder({
    channelId: channel?.id,
    recording: channel?.recording ?? false,
    userId,
    token: session?.token,
    socket,
  });
  const voice = useVoiceRoom({
    socket,
    recorder,
    enabled: Boolean(channel && config.data && roomId),
    room: roomId ?? '',
    name,
    iceServers: config.data?.iceServers ?? [],
    iceTransportPolicy: config.data?.iceTransportPolicy,
    video,
    voiceProcessing,
    reportMicState,
  });
  // Spec section 4: once the socket id is known, the user is connected to the channel. join_room already
  // places the socket there; the call keeps the spec's flow and changes nothing when it did.
  const socketId = voice.state.joined ? voice.state.selfId : null;
  const channelId = channel?.id;
  useEffect(() => {
    if (!socketId || channelId === undefined || userId === undefined) return;
    api(ConnectAdminToChannel, { userId, channelId, socketId }).catch(() => {});
  }, [socketId, channelId, userId]);

  // A channel renamed or deleted elsewhere: read the list again (a rename moves the room, see renamed).
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: callKey(manageChannels ? GetChannelOverviews : GetMyChannels) });
    };
    socket.on('onChannelsChanged', refresh);
    socket.on('onChannelDeleted', refresh);
    return () => {
      socket.off('onChannelsChanged', refresh);
      socket.off('onChannelDeleted', refresh);
    };
  }, [socket, manageChannels, queryClient]);

  const members = useChannelMembers(channel?.id, socket);
  const chat = useChat({
    channelId: channel?.id,
    room: roomId,
    userId,
    socket,
    recording: channel?.recording ?? false,
    canExport: may('voice.manage'),
    canModerate: may('messages.moderate'),
  });
  const self = members.members.find((member) => member.user.id === userId);
  // The room's members are this user's fellow members: its standing is a member's (an administrator holds it anyway).
  const canSeeMap = protocolMay(
    { role: me?.role ?? 'member', mapRight: Boolean(self?.user.mapRight) },
    { member: true },
    'channel.map',
  );
  /** Listen-only here (its membership may not talk): the press is refused, the page says so. */
  const listenOnly =
    self !== undefined &&
    !protocolMay({ role: me?.role ?? 'member' }, { member: true, canTalk: self.canTalk }, 'channel.talk');

  return {
    me,
    manageChannels,
    listenOnly,
    channel,
    /** The other channels this user may hear from here ("Also listen to"). */
    otherChannels: channels,
    renamed,
    channelLoading,
    channelError,
    notFound,
    reconnecting: voice.state.reconnecting,
    config: config.data,
    configError: config.error,
    socket,
    connected,
    voice,
    voiceProcessing,
    setVoiceProcessing,
    members,
    chat,
    canSeeMap,
  };
}
