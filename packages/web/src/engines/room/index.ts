/**
 * A channel's room, as every page that enters a channel uses it (the room pages, the members' app, the dispatch
 * console): the room hook (socket, members, chat), its frame and the pieces a channel page shows. The voice is
 * engines/voice's and the map engines/map's; the room's own pages are features/room's, loaded by app/router.tsx.
 */
export { ChatPanel } from './chat/ChatPanel.tsx';
export { uploadImage, useChat } from './chat/useChat.ts';
export { ChannelMembersTable } from './members/ChannelMembersTable.tsx';
export { type ChannelMember, memberName } from './members/useChannelMembers.ts';
export { RoomFrame } from './RoomFrame.tsx';
export { useRoom } from './useRoom.ts';
export type { RoomChannel } from './useRoomChannel.ts';
