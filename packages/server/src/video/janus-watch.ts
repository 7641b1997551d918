/**
 * A viewer's subscription through the media server (issue 61; janus-video.ts makes it): Janus's offer goes to the
 * viewer's page once the sharer's connection is up. Where it cannot be made, the viewer's place goes; a sharer
 * whose connection never came up (PublisherMissingError) is no fault of the server's: the viewer's page is told
 * (`video_unavailable` with its sentence) and may watch again.
 */
import type { ServerLanguage } from '@talkgroup/protocol';
import { serverText } from '../http/messages.ts';
import type { Io } from '../sockets/io.ts';
import { type JanusStream, type JanusVideo, PublisherMissingError } from './janus-video.ts';
import type { LiveStream, LiveVideoStore } from './live-store.ts';

export interface JanusWatchDeps {
  io: Io;
  store: LiveVideoStore;
  janus: JanusVideo;
  /** The viewer's place is freed (its index of watched streams on this instance). */
  forget(viewerSocketId: string, streamId: string): void;
}

/** Subscribes a viewer let in; throws what is the server's (Janus's refusals, a Janus lost meanwhile). */
export async function subscribeViewer(
  deps: JanusWatchDeps,
  stream: LiveStream,
  viewerSocketId: string,
  language: ServerLanguage = 'en',
): Promise<void> {
  const { io, store, janus } = deps;
  const { streamId } = stream;
  try {
    const sdp = await janus.subscribe(stream, viewerSocketId);
    // Ended, or left, while Janus made it: the subscription goes at once.
    const now = await store.get(streamId);
    if (!now?.viewers.some((v) => v.socketId === viewerSocketId)) {
      await janus.unsubscribe(streamId, viewerSocketId);
      return;
    }
    io.to(viewerSocketId).emit('video_offer', { streamId, sdp });
  } catch (error) {
    deps.forget(viewerSocketId, streamId);
    const watched = await store.unwatch(streamId, viewerSocketId);
    if (!(error instanceof PublisherMissingError)) throw error;
    // Still live (an ended stream's viewers hear `video_ended`): the page shows why, and may try again.
    if (watched) {
      const code = 'video_unpublished' as const;
      io.to(viewerSocketId).emit('video_unavailable', { streamId, code, result: serverText(code, {}, language) });
    }
  }
}

/** What the other instances need of a stream to take it out of Janus. */
export const janusStreamOf = ({ streamId, channelId, name, janusUrl, startedAt }: LiveStream): JanusStream => ({
  streamId,
  channelId,
  name,
  startedAt,
  ...(janusUrl ? { janusUrl } : {}),
});
