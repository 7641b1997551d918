/**
 * What a member sees of a fellow member (issue 16, least data): the name, pseudo and state in the channel
 * being read, and the position only with map access. Login, e-mail, phone, photo and the other channels
 * (memberships, sockets and activities elsewhere) are for administrators and for the user itself.
 */
import type { User } from '@talkgroup/protocol';

export function memberView(user: User, channelId: number, withPosition: boolean): User {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    identifier: '',
    email: '',
    pseudo: user.pseudo,
    display_name: user.display_name,
    phone_number: '',
    photo_url: null,
    mapRight: false,
    role: user.role,
    // Shown in the channel's floor queue anyway (issue 59).
    talkPriority: user.talkPriority,
    talkPriorityFromRole: user.talkPriorityFromRole,
    createdAt: '',
    disabled: false,
    channels: user.channels.filter((channel) => channel.id === channelId),
    // State: whether it is connected, and in this channel; a socket elsewhere names no channel or socket.
    user_sockets: user.user_sockets.map((socket) => ({
      userId: user.id,
      channelId: socket.channelId === channelId ? channelId : null,
      socket_id: '',
    })),
    userPositions: withPosition ? user.userPositions : [],
    userActivities: user.userActivities.filter((activity) => activity.channel?.id === channelId),
  };
}
