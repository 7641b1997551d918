/**
 * The room's public face for other features (the members' app, features/talk): the room hook, its frame
 * and the pieces a channel page shows. The room's own pages are loaded by app/router.tsx from their files.
 */
export { ChatPanel } from './chat/ChatPanel.tsx';
export {
  playingVoiceId,
  playVoiceMessages,
  stopVoicePlayback,
  subscribeVoicePlayback,
} from './chat/voicePlayback.ts';
export { MembersMap } from './map/MembersMap.tsx';
export { RoomMapSection } from './map/RoomMapSection.tsx';
export { ChannelMembersTable } from './members/ChannelMembersTable.tsx';
export { type ChannelMember, memberName } from './members/useChannelMembers.ts';
export { RoomFrame } from './RoomFrame.tsx';
export { useClientConfig } from './useClientConfig.ts';
export { useRoom } from './useRoom.ts';
export type { RoomChannel } from './useRoomChannel.ts';
export { setIncomingMuted } from './voice/incoming.ts';
export { MediaProblemAlert } from './voice/MediaProblemAlert.tsx';
export { PushToTalkButton } from './voice/PushToTalkButton.tsx';
export { RecordedMark } from './voice/RecordedMark.tsx';
export { useTransmissionRecorder } from './voice/useTransmissionRecorder.ts';
export { useVoiceRoom } from './voice/useVoiceRoom.ts';
export { VoiceLinkStatus } from './voice/VoiceLinkStatus.tsx';
export type { VoiceRoom } from './voice/voiceRoom.ts';
export type { PeerState, VoiceRoomState } from './voice/voiceRoomState.ts';
export type { AudioOutput } from './voice/voiceTransport.ts';
