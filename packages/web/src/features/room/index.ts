/**
 * The room's public face for other features (the members' app, features/talk): the room hook, its frame
 * and the pieces a channel page shows. The voice itself is engines/voice's. The room's own pages are loaded by app/router.tsx from their files.
 */
export { ChatPanel } from './chat/ChatPanel.tsx';
export { MembersMap } from './map/MembersMap.tsx';
export { RoomMapSection } from './map/RoomMapSection.tsx';
export { ChannelMembersTable } from './members/ChannelMembersTable.tsx';
export { type ChannelMember, memberName } from './members/useChannelMembers.ts';
export { RoomFrame } from './RoomFrame.tsx';
export { useRoom } from './useRoom.ts';
export type { RoomChannel } from './useRoomChannel.ts';
