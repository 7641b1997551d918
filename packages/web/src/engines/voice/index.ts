/**
 * The voice engine (issue 34: out of features/room): joining a channel's voice (peer to peer or through the
 * media server), push-to-talk and the floor, the microphone and its processing, recording and uploading each
 * transmission, playing recorded ones, and the controls every voice page shows. The room pages, /talk,
 * /dispatch and private calls all use it; it imports no feature (engines sit below them).
 */

export { FloorQueueList, useFloorQueue } from './FloorQueueList.tsx';
export { isGatewayPeer } from './gatewayPeer.ts';
export { setIncomingMuted } from './incoming.ts';
export { MediaProblemAlert } from './MediaProblemAlert.tsx';
export { PushToTalkButton } from './PushToTalkButton.tsx';
export { RecordedMark } from './RecordedMark.tsx';
export type { FloorWait } from './talkControl.ts';
export { useTransmissionRecorder } from './useTransmissionRecorder.ts';
export { useVoiceProcessing } from './useVoiceProcessing.ts';
export { useVoiceRoom } from './useVoiceRoom.ts';
export { VoiceLinkStatus } from './VoiceLinkStatus.tsx';
export { playingVoiceId, playVoiceMessages, stopVoicePlayback, subscribeVoicePlayback } from './voicePlayback.ts';
export type { VoiceRoom } from './voiceRoom.ts';
export type { PeerState, VoiceRoomState } from './voiceRoomState.ts';
export type { AudioOutput } from './voiceTransport.ts';
