/**
 * One channel's signalling over the page's one socket (a page in several channels shares it): every event it
 * sends names the channel (`room`), and it hears only the events of its channel (those that name another are
 * for another channel's transport).
 */
import type { JoinAnswer, MediaLeg, ParticipationMode, ServerToClientEvents } from '@talkgroup/protocol';
import type { RoomSocket } from './voiceRoomState.ts';

type EventName = keyof ServerToClientEvents;

/** How long a join may wait for its answer before the page stops waiting (the server answers in milliseconds). */
const JOIN_ANSWER_MS = 10_000;

export class SignalClient {
  constructor(
    readonly socket: RoomSocket,
    /** The channel's rtcSession. */
    readonly room: string,
  ) {}

  get selfId(): string | null {
    return this.socket.id ?? null;
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Whether an event's payload is about this channel (an older server names none: it is in one). */
  concerns(payload: unknown): boolean {
    const room = (payload as { room?: unknown } | null)?.room;
    return room === undefined || room === this.room;
  }

  /** Listens to an event of this channel; returns the function that stops listening. */
  on<E extends EventName>(event: E, handler: ServerToClientEvents[E]): () => void {
    // The handler's result goes back to the caller (a test double awaits asynchronous handlers).
    const filtered = ((payload: unknown, ...rest: unknown[]) =>
      this.concerns(payload) ? (handler as (...args: unknown[]) => unknown)(payload, ...rest) : undefined) as never;
    this.socket.on(event, filtered);
    return () => this.socket.off(event, filtered);
  }

  /** Joins the channel; resolves with the server's answer (the peers there), or undefined without one. */
  join(name: string, mode: ParticipationMode): Promise<JoinAnswer | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), JOIN_ANSWER_MS);
      this.socket.emit('join_room', { room: this.room, name, mode }, (answer: JoinAnswer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  leave(): void {
    if (this.socket.connected) this.socket.emit('leave_room', { room: this.room });
  }

  offer(to: string, sdp: unknown, name: string): void {
    this.socket.emit('offer', {
      sdp,
      offerSendID: this.socket.id ?? '',
      offerSendName: name,
      offerReceiveID: to,
      room: this.room,
    });
  }

  answer(to: string, sdp: unknown): void {
    this.socket.emit('answer', { sdp, answerSendID: this.socket.id ?? '', answerReceiveID: to, room: this.room });
  }

  /**
   * A `server` channel: the page's offer to the media server (`send`: its microphone); resolves with its answer
   * (or why not).
   */
  mediaOffer(sdp: string, leg?: 'send'): Promise<{ success: true; sdp: string } | { success: false; result: string }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ success: false, result: 'no answer from the server' }), JOIN_ANSWER_MS);
      this.socket.emit('media_offer', { room: this.room, sdp, ...(leg ? { leg } : {}) }, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /** A `server` channel, a page that only listens: the media server's offer of the channel's mix. */
  mediaWatch(): Promise<{ success: true; sdp: string } | { success: false; result: string }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ success: false, result: 'no answer from the server' }), JOIN_ANSWER_MS);
      this.socket.emit('media_watch', { room: this.room }, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /** The page's answer to that offer. */
  mediaAnswer(sdp: string): Promise<{ success: boolean; result?: string }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ success: false, result: 'no answer from the server' }), JOIN_ANSWER_MS);
      this.socket.emit('media_answer', { room: this.room, sdp }, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /** A candidate of one of the page's connections to the media server (null: gathering is complete). */
  mediaCandidate(candidate: RTCIceCandidateInit | null, leg: MediaLeg): void {
    if (this.socket.connected) this.socket.emit('media_candidate', { room: this.room, candidate, leg });
  }

  candidate(to: string, candidate: RTCIceCandidateInit): void {
    this.socket.emit('candidate', {
      candidate,
      candidateSendID: this.socket.id ?? '',
      candidateReceiveID: to,
      room: this.room,
    });
  }
}
