/**
 * Live video (issue 61): a member's camera shared from /talk (useVideoShare, VideoShareCard) to the dispatch
 * console and, where the channel allows it, its members (LiveVideos), peer to peer on the mesh (videoPeer.ts);
 * each stream recorded by its sharing page and listed in the channel's history (ChannelVideosButton).
 */

export { ChannelLiveVideos } from './ChannelLiveVideos.tsx';
export { RequestVideoButton } from './RequestVideoButton.tsx';
export { useVideoShare, type VideoShare } from './useVideoShare.ts';
export { StreamVideo, VideoShareCard, WatchedBanner } from './VideoShareCard.tsx';
