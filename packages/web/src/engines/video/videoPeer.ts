/**
 * Live video's two ends on the mesh (issue 61; docs/api.md "Live video"): one RTCPeerConnection per viewer, apart
 * from the voice path (the talk button and the channel's room are untouched). The sharing page offers its camera
 * track to each viewer the server announces (`video_viewer`), at most the server's 4; a viewer answers, receive
 * only. Signalled over the pages' sockets (`video_offer`, `video_answer`, `video_candidate`), which the server
 * relays only between a live stream's sharer and one of its viewers. The app's ICE servers, as every connection.
 */
import type { VideoRefusal, VideoUnavailable } from '@talkgroup/protocol';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { candidateQueue } from '../voice/candidateQueue.ts';

export interface VideoIce {
  iceServers: RTCIceServer[];
  iceTransportPolicy?: RTCIceTransportPolicy;
}

type CandidatePayload = { streamId: string; viewerSocketId?: string; candidate: RTCIceCandidateInit | null };

interface ViewerLink {
  pc: RTCPeerConnection;
  queue: ReturnType<typeof candidateQueue>;
}

/**
 * The sharing page's end: listens before `video_start` is sent (a viewer may be announced as soon as the stream
 * is), and offers the current camera track to each viewer once the stream's id is known.
 */
export class VideoSharer {
  private streamId: string | null = null;
  private readonly viewers = new Map<string, ViewerLink>();
  /** Viewers announced before the start's answer gave this page its stream's id. */
  private readonly early: Array<{ streamId: string; viewerSocketId: string }> = [];
  private track: MediaStreamTrack;
  private closed = false;

  constructor(
    private readonly socket: TalkgroupSocket,
    private readonly stream: MediaStream,
    private readonly ice: VideoIce,
  ) {
    const [track] = stream.getVideoTracks();
    if (!track) throw new Error('no camera track');
    this.track = track;
    socket.on('video_viewer', this.onViewer);
    socket.on('video_viewer_left', this.onViewerLeft);
    socket.on('video_answer', this.onAnswer);
    socket.on('video_candidate', this.onCandidate as never);
  }

  /** The stream's id, from `video_start`'s answer: viewers announced before are offered now. */
  started(streamId: string): void {
    this.streamId = streamId;
    for (const viewer of this.early.splice(0)) if (viewer.streamId === streamId) this.offer(viewer.viewerSocketId);
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** The other camera: every viewer gets its frames without a new offer. */
  async replaceTrack(track: MediaStreamTrack): Promise<void> {
    this.track = track;
    await Promise.all(
      [...this.viewers.values()].flatMap(({ pc }) =>
        pc.getSenders().map((sender) => (sender.track?.kind === 'video' ? sender.replaceTrack(track) : undefined)),
      ),
    );
  }

  stop(): void {
    this.closed = true;
    this.socket.off('video_viewer', this.onViewer);
    this.socket.off('video_viewer_left', this.onViewerLeft);
    this.socket.off('video_answer', this.onAnswer);
    this.socket.off('video_candidate', this.onCandidate as never);
    for (const { pc } of this.viewers.values()) pc.close();
    this.viewers.clear();
  }

  private readonly onViewer = (payload: { streamId: string; viewerSocketId: string }) => {
    if (this.closed) return;
    if (this.streamId === null) this.early.push(payload);
    else if (payload.streamId === this.streamId) this.offer(payload.viewerSocketId);
  };

  private readonly onViewerLeft = (payload: { streamId: string; viewerSocketId: string }) => {
    if (payload.streamId !== this.streamId) return;
    this.viewers.get(payload.viewerSocketId)?.pc.close();
    this.viewers.delete(payload.viewerSocketId);
  };

  private readonly onAnswer = (payload: { streamId: string; viewerSocketId: string; sdp: string }) => {
    const link = payload.streamId === this.streamId ? this.viewers.get(payload.viewerSocketId) : undefined;
    if (!link) return;
    void link.pc.setRemoteDescription({ type: 'answer', sdp: payload.sdp }).then(link.queue.ready, () => undefined);
  };

  private readonly onCandidate = (payload: CandidatePayload) => {
    if (payload.streamId !== this.streamId || !payload.viewerSocketId) return;
    this.viewers.get(payload.viewerSocketId)?.queue.add(payload.candidate);
  };

  private offer(viewerSocketId: string): void {
    const streamId = this.streamId;
    if (!streamId) return;
    // A viewer's page that watches again (a reload) gets a fresh connection.
    this.viewers.get(viewerSocketId)?.pc.close();
    const pc = new RTCPeerConnection(this.ice);
    const link = { pc, queue: candidateQueue(pc) };
    this.viewers.set(viewerSocketId, link);
    pc.addTrack(this.track, this.stream);
    pc.onicecandidate = (event) =>
      this.socket.emit('video_candidate', {
        streamId,
        viewerSocketId,
        candidate: event.candidate ? event.candidate.toJSON() : null,
      } as never);
    void (async () => {
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      if (this.viewers.get(viewerSocketId) === link)
        this.socket.emit('video_offer', { streamId, viewerSocketId, sdp: offer.sdp ?? '' });
    })().catch(() => undefined);
  }
}

export type WatchAnswer = { ok: true; stop(): void } | { ok: false; refusal: string };

/**
 * A viewer's end: asks to watch (`video_watch`), answers the sharer's offer and hands over what comes in. The
 * listeners are set before the ask, since the offer may follow its answer at once. Through the media server the
 * video may never come (the sharer's connection to it not up in time: `video_unavailable`): `onUnavailable` gets
 * the server's sentence, and the page may watch again.
 */
export async function watchVideo(
  socket: TalkgroupSocket,
  streamId: string,
  ice: VideoIce,
  onStream: (stream: MediaStream) => void,
  onUnavailable: (sentence: string) => void = () => undefined,
): Promise<WatchAnswer> {
  let pc: RTCPeerConnection | null = null;
  let queue: ReturnType<typeof candidateQueue> | null = null;
  const early: Array<RTCIceCandidateInit | null> = [];
  const onOffer = (payload: { streamId: string; sdp: string }) => {
    if (payload.streamId !== streamId) return;
    pc?.close();
    const connection = new RTCPeerConnection(ice);
    pc = connection;
    queue = candidateQueue(connection);
    for (const candidate of early.splice(0)) queue.add(candidate);
    connection.ontrack = (event) => onStream(event.streams[0] ?? new MediaStream([event.track]));
    connection.onicecandidate = (event) =>
      socket.emit('video_candidate', {
        streamId,
        candidate: event.candidate ? event.candidate.toJSON() : null,
      } as never);
    const ready = queue.ready;
    void (async () => {
      await connection.setRemoteDescription({ type: 'offer', sdp: payload.sdp });
      ready();
      const answer = await connection.createAnswer();
      await connection.setLocalDescription(answer);
      socket.emit('video_answer', { streamId, sdp: answer.sdp ?? '' });
    })().catch(() => undefined);
  };
  const onCandidate = (payload: CandidatePayload) => {
    if (payload.streamId !== streamId) return;
    if (queue) queue.add(payload.candidate);
    else early.push(payload.candidate);
  };
  const onUnavailableEvent = (payload: VideoUnavailable) => {
    if (payload.streamId === streamId) onUnavailable(payload.result);
  };
  socket.on('video_offer', onOffer);
  socket.on('video_candidate', onCandidate as never);
  socket.on('video_unavailable', onUnavailableEvent);
  const unlisten = () => {
    socket.off('video_offer', onOffer);
    socket.off('video_candidate', onCandidate as never);
    socket.off('video_unavailable', onUnavailableEvent);
  };
  const answer = await new Promise<{ success: boolean; result?: string }>((resolve) =>
    socket.emit('video_watch', { streamId }, (reply: { success: boolean } | VideoRefusal) => resolve(reply)),
  );
  if (!answer.success) {
    unlisten();
    return { ok: false, refusal: answer.result ?? '' };
  }
  return {
    ok: true,
    stop() {
      unlisten();
      (pc as RTCPeerConnection | null)?.close();
      socket.emit('video_unwatch', { streamId });
    },
  };
}
