/**
 * Live video's signalling (issue 61; live.ts decides who shares and who watches): peer to peer, the offers, answers
 * and candidates pass only between a stream's sharer socket and one of its viewers'; through the media server, the
 * sharer publishes its offer to Janus and each viewer's answer, candidates and layer go to Janus.
 */
import type { VideoLayer } from '@talkgroup/protocol';
import type { ChannelSummary } from '../channels/summary.ts';
import type { JanusVideo } from './janus-video.ts';
import type { LiveVideoStore } from './live-store.ts';

export type SignalKind = 'offer' | 'answer' | 'candidate';

export function liveSignals(deps: {
  store: LiveVideoStore;
  channels: { get(channelId: number): Promise<ChannelSummary | undefined> };
  janus?: JanusVideo;
}) {
  const { store, channels, janus } = deps;
  return {
    /**
     * Through the media server: the sharer's offer, from the page that started the stream; Janus's answer. The
     * channel's `recording` says whether Janus records it. Undefined for any other page, or a mesh stream.
     */
    async publish(sharerSocketId: string, streamId: string, sdp: string): Promise<string | undefined> {
      const stream = await store.get(streamId);
      if (!stream?.janusUrl || stream.socketId !== sharerSocketId || !janus) return undefined;
      const channel = await channels.get(stream.channelId);
      const answer = await janus.publish(stream, sdp, channel?.recording === true);
      // Ended while Janus answered: its publisher leaves at once.
      if (!(await store.get(streamId))) await janus.ended(stream, new Date());
      return answer;
    },

    /**
     * Through the media server, a viewer's answer or candidate, or the sharer's candidate, to Janus: false when
     * the stream is not one of the media server's (the mesh relays it), undefined when this socket has no place
     * in it here.
     */
    async toJanus(
      streamId: string,
      socketId: string,
      signal: { kind: 'answer'; sdp: string } | { kind: 'candidate'; candidate: unknown },
    ): Promise<boolean | undefined> {
      const stream = await store.get(streamId);
      if (!stream?.janusUrl || !janus) return false;
      const sharer = stream.socketId === socketId;
      if (!sharer && !stream.viewers.some((v) => v.socketId === socketId)) return undefined;
      if (signal.kind === 'candidate')
        return (await janus.trickle(streamId, socketId, sharer, signal.candidate)) || undefined;
      return (!sharer && (await janus.answer(streamId, socketId, signal.sdp))) || undefined;
    },

    /** Through the media server: the layer a viewer's page receives; false when it watches no such stream here. */
    async layer(viewerSocketId: string, streamId: string, layer: VideoLayer): Promise<boolean> {
      const stream = await store.get(streamId);
      if (!stream?.janusUrl || !janus) return false;
      if (!stream.viewers.some((v) => v.socketId === viewerSocketId)) return false;
      return janus.layer(streamId, viewerSocketId, layer);
    },

    /**
     * Where a signal may go: from the sharer's socket to one of its viewers (offers and candidates), from a viewer
     * to the sharer's socket (answers and candidates); undefined for anyone else, or a stream that is over.
     */
    async relay(
      streamId: string,
      fromSocketId: string,
      kind: SignalKind,
      viewerSocketId: string | undefined,
    ): Promise<{ to: string; fromSharer: boolean } | undefined> {
      const stream = await store.get(streamId);
      // Through the media server nothing passes between the pages.
      if (!stream || stream.janusUrl) return undefined;
      const isViewer = (socketId: string | undefined) => stream.viewers.some((v) => v.socketId === socketId);
      if (fromSocketId === stream.socketId)
        return kind !== 'answer' && viewerSocketId && isViewer(viewerSocketId)
          ? { to: viewerSocketId, fromSharer: true }
          : undefined;
      if (isViewer(fromSocketId) && kind !== 'offer') return { to: stream.socketId, fromSharer: false };
      return undefined;
    },
  };
}
