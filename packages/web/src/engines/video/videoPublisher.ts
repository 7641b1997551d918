/**
 * The sharing page's end through the media server (issue 61 item 3; docs/api.md "Live video"): one connection,
 * whatever the number of viewers, to Janus's VideoRoom through this server (`video_publish`, answered with Janus's
 * answer; candidates with `video_candidate`). The camera goes up in two simulcast layers, the full picture (`h`)
 * and a quarter of its size (`l`), in that order (Janus takes the first rid as the highest): a console tile takes
 * the low one, a full view the high one, without the phone sending more. Apart from the voice path, as on the mesh.
 */
import type { VideoRefusal } from '@talkgroup/protocol';
import type { TalkgroupSocket } from '../../api/socket.ts';
import type { VideoIce } from './videoPeer.ts';

/** The layers sent: the whole picture, and a quarter of its width and height for the tiles. */
const LAYERS: RTCRtpEncodingParameters[] = [
  { rid: 'h', maxBitrate: 1_200_000 },
  { rid: 'l', maxBitrate: 200_000, scaleResolutionDownBy: 4 },
];

/** What useVideoShare does with either end (this one, or the mesh's VideoSharer). */
export interface VideoSender {
  replaceTrack(track: MediaStreamTrack): Promise<void>;
  stop(): void;
}

export class VideoPublisher implements VideoSender {
  private readonly pc: RTCPeerConnection;
  private readonly sender: RTCRtpSender;

  constructor(
    private readonly socket: TalkgroupSocket,
    stream: MediaStream,
    ice: VideoIce,
  ) {
    const [track] = stream.getVideoTracks();
    if (!track) throw new Error('no camera track');
    this.pc = new RTCPeerConnection(ice);
    this.sender = this.pc.addTransceiver(track, {
      direction: 'sendonly',
      streams: [stream],
      sendEncodings: LAYERS.map((layer) => ({ ...layer })),
    }).sender;
  }

  /** Offers the camera for this stream; rejects with the server's sentence when it refuses. */
  async publish(streamId: string): Promise<void> {
    const pending: Array<RTCIceCandidateInit | null> = [];
    let answered = false;
    const send = (candidate: RTCIceCandidateInit | null) =>
      this.socket.emit('video_candidate', { streamId, candidate } as never);
    // Candidates wait for Janus's answer: its handle takes them once the offer is in.
    this.pc.onicecandidate = (event) => {
      const candidate = event.candidate ? event.candidate.toJSON() : null;
      if (answered) send(candidate);
      else pending.push(candidate);
    };
    const offer = await this.pc.createOffer();
    await this.pc.setLocalDescription(offer);
    const answer = await new Promise<{ success: true; sdp: string } | VideoRefusal>((resolve) =>
      this.socket.emit('video_publish', { streamId, sdp: offer.sdp ?? '' }, resolve),
    );
    if (!answer.success) throw new Error(answer.result);
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
    answered = true;
    for (const candidate of pending.splice(0)) send(candidate);
  }

  /** The other camera: the layers follow it without a new offer. */
  async replaceTrack(track: MediaStreamTrack): Promise<void> {
    await this.sender.replaceTrack(track);
  }

  stop(): void {
    this.pc.onicecandidate = null;
    this.pc.close();
  }
}
