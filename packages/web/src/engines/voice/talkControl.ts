/**
 * The client side of the floor (issue 14). Unanswered requests count as refused after a while, so a press
 * never hangs.
 */
import type { FloorAnswer, FloorRevokeReason } from '@talkgroup/protocol';
import type { LinkTone } from './linkTones.ts';
import type { TransmissionRecorder } from './recorder.ts';
import type { RoomSocket } from './voiceRoomState.ts';

const ANSWER_WITHIN_MS = 5000;
const NO_ANSWER: FloorAnswer = { granted: false, holder: { userId: 0, name: '' } };

export function requestFloor(socket: RoomSocket, room: string): Promise<FloorAnswer> {
  if (!socket.connected) return Promise.resolve(NO_ANSWER);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(NO_ANSWER), ANSWER_WITHIN_MS);
    socket.emit('floor_request', { room }, (answer: FloorAnswer) => {
      clearTimeout(timer);
      resolve(answer && typeof answer === 'object' && 'granted' in answer ? answer : NO_ANSWER);
    });
  });
}

export function releaseFloor(socket: RoomSocket, room: string): void {
  if (socket.connected) socket.emit('floor_release', { room });
}

/**
 * Issue 59: where this socket's press stands on a busy floor, for the page to say: waiting in the channel's
 * queue at `position` (from 1) behind `holder`; offered the floor ("Your turn") until `until` (this device's
 * clock, ms: the page counts it down, issue 70); the offer lapsed unanswered ("Turn missed", issue 70); or cut
 * off by a higher priority (`by`). Null: none of these.
 */
export type FloorWait =
  | { kind: 'queued'; position: number; holder: string }
  | { kind: 'offered'; until: number }
  | { kind: 'missed' }
  | { kind: 'interrupted'; by: string }
  | null;

/** How long "Turn missed" stays (issue 70): long enough to be read, then the button is itself again. */
export const MISSED_TURN_SHOWN_MS = 8000;
/** An offer's time when the server did not say it (an older server): its default, 3 s. */
const OFFER_DEFAULT_MS = 3000;

/**
 * Push-to-talk of one room: a press asks for the floor and enables the microphone track once it is granted
 * (a talk-permit beep); refused, a busy tone and the holder's name; a release disables the track and gives
 * the floor back; the server taking it back (an administrator breaking in, the time limit) switches it off.
 */
/**
 * How an all call's channel records it: the first channel's take (`alsoIn`: the others it is kept in too), none
 * in the others (`records: false`).
 */
export interface BroadcastRecording {
  records?: boolean;
  alsoIn?: number[];
  /** The all call's grant (broadcast_request's answer): its recording names it when uploaded. */
  grantId?: string;
}

export class TalkControl {
  micOn = false;
  /** The button is held (the floor may not be granted yet). */
  private pressed = false;
  /** Who holds the floor that the last press was refused. */
  floorHolder: string | null = null;
  /** Issue 59: the press waiting in the floor queue, the floor offered, or the talk cut off. */
  wait: FloorWait = null;

  constructor(
    private readonly room: {
      socket: RoomSocket;
      name: string;
      track: () => MediaStreamTrack | undefined;
      /** Lets the microphone be heard (the transport: the mesh enables the track) or silences it. */
      talking: (on: boolean) => void;
      tone: (tone: LinkTone) => void;
      /** A press is a gesture: playback of the others may start. */
      pressed: () => void;
      /** The mic changed: report it and redraw. */
      micChanged: () => void;
      changed: () => void;
      isOpen: () => boolean;
      /** Voice history: records each transmission from the press to the release (recorder.ts). */
      recorder?: TransmissionRecorder;
    },
  ) {}

  press(on: boolean): void {
    this.pressed = on;
    const track = this.room.track();
    if (!track) return;
    if (!on) {
      this.floorHolder = null;
      // Releasing the button does not leave the floor queue (issue 59): only Cancel does.
      if (this.micOn) this.talk(false);
      else {
        this.room.recorder?.discard();
        this.room.changed();
      }
      return;
    }
    if (this.micOn) return;
    if (this.wait?.kind === 'interrupted' || this.wait?.kind === 'missed') this.wait = null;
    this.ask(track);
  }

  /** Asks the floor for a held button; `offered`: it confirms the queue's offer (whose tone already played). */
  private ask(track: MediaStreamTrack, offered = false): void {
    // The request leaves first (press-to-sound: bench/ptt-latency); what follows still runs before its answer
    // can be read. Recording starts with the press, before the grant: the first syllable is kept.
    const answered = requestFloor(this.room.socket, this.room.name);
    this.room.pressed();
    this.room.recorder?.begin(track);
    void answered.then((answer) => {
      if (this.room.isOpen() && !answer.granted && 'queued' in answer) return this.queued(answer);
      if (!this.room.isOpen() || !this.pressed) {
        if (answer.granted) releaseFloor(this.room.socket, this.room.name);
        this.room.recorder?.discard();
        return;
      }
      if (answer.granted) {
        this.floorHolder = null;
        this.wait = null;
        // The track first: the beep's Web Audio set-up (an AudioContext on the first press) must not delay it.
        this.talk(true, answer.grantId);
        if (!offered) this.room.tone('permit');
      } else {
        this.room.recorder?.discard();
        const holder = 'holder' in answer ? answer.holder.name : '';
        if (holder) this.room.tone('busy');
        this.floorHolder = holder || null;
        if (this.wait?.kind === 'offered') this.wait = null;
        this.room.changed();
      }
    });
  }

  /** The press waits in the channel's floor queue (issue 59): the queued tone, and its place shown. */
  private queued(answer: { position: number; holder: { name: string } }): void {
    this.room.recorder?.discard();
    this.floorHolder = null;
    if (this.wait?.kind !== 'queued') this.room.tone('queued');
    this.wait = { kind: 'queued', position: answer.position, holder: answer.holder.name };
    this.room.changed();
  }

  /** Its place in the floor queue changed (floor_queue_position; 0: out of it: removed, expired or offered). */
  queuePosition = (payload: { room: string; position: number }): void => {
    if (payload.room !== this.room.name || this.micOn) return;
    if (payload.position < 1) {
      if (this.wait?.kind === 'queued') this.wait = null;
    } else {
      const holder = this.wait?.kind === 'queued' ? this.wait.holder : '';
      this.wait = { kind: 'queued', position: payload.position, holder };
    }
    this.room.changed();
  };

  /**
   * The floor is offered to this socket, first in the queue: the talk-permit tone and "Your turn"; a button
   * still held confirms it at once (a floor_request within acceptMs), else the next press does.
   */
  private offered(acceptMs = OFFER_DEFAULT_MS): void {
    clearTimeout(this.missedTimer);
    // Counted on this device's clock from now: the server's `until` is on its own, which may differ by seconds.
    this.wait = { kind: 'offered', until: Date.now() + acceptMs };
    this.floorHolder = null;
    this.room.tone('permit');
    const track = this.room.track();
    if (this.pressed && track && !this.micOn) this.ask(track, true);
    this.room.changed();
  }

  /** Leaves the floor queue (the page's Cancel, issue 59); an offer not taken yet is declined too. */
  cancelQueue(): void {
    if (this.room.socket.connected) this.room.socket.emit('floor_cancel', { room: this.room.name });
    this.wait = null;
    this.room.changed();
  }

  /** `grantId`: the floor's grant the microphone goes on under (its recording's upload names it). */
  talk(on: boolean, grantId?: string): void {
    const track = this.room.track();
    if (!track || this.micOn === on) return;
    this.room.talking(on);
    this.micOn = on;
    if (on && !this.unrecorded) this.room.recorder?.keep(track, grantId);
    else if (!on) {
      this.unrecorded = false;
      this.room.recorder?.end();
    }
    if (!on) releaseFloor(this.room.socket, this.room.name);
    this.room.micChanged();
  }

  /** The link dropped: the server freed the floor; the track goes off without a word to it. */
  lost(): void {
    // The server forgets a disconnected socket's place in the queue.
    if (this.wait) {
      this.wait = null;
      this.room.changed();
    }
    if (!this.micOn) return;
    this.micOn = false;
    this.room.recorder?.end();
    this.room.talking(false);
    this.room.micChanged();
  }

  revoked = (payload: { room: string; reason?: FloorRevokeReason; by?: { name: string } }): void => {
    clearTimeout(this.openMicTimer);
    if (payload.room !== this.room.name) return;
    // The offer ran out unconfirmed ('not_taken'; the floor goes to the next in line): the page says the turn
    // was missed (issue 70), for a while; an offer taken back otherwise just goes.
    if (payload.reason === 'not_taken' || (!this.micOn && this.wait?.kind === 'offered')) {
      this.wait = payload.reason === 'not_taken' ? { kind: 'missed' } : null;
      if (this.wait) this.forgetMissedLater();
      this.room.changed();
      return;
    }
    if (!this.micOn) return;
    const by = payload.reason === 'preempted' ? payload.by?.name : undefined;
    this.room.tone(by !== undefined ? 'preempted' : 'revoked');
    if (by !== undefined) this.wait = { kind: 'interrupted', by };
    this.talk(false);
  };

  private openMicTimer: ReturnType<typeof setTimeout> | undefined;
  private missedTimer: ReturnType<typeof setTimeout> | undefined;

  /** "Turn missed" goes by itself after a while, unless something else was said meanwhile. */
  private forgetMissedLater(): void {
    clearTimeout(this.missedTimer);
    this.missedTimer = setTimeout(() => {
      if (this.wait?.kind !== 'missed') return;
      this.wait = null;
      this.room.changed();
    }, MISSED_TURN_SHOWN_MS);
  }

  /**
   * The server gave this socket the floor without a press (its user raised an emergency alert): the
   * microphone opens for `holdMs`. The server takes the floor back then (floor_revoked); should that word
   * be lost, the microphone closes by itself a moment later unless the button is held.
   */
  granted = (
    payload:
      | { room: string; reason?: 'emergency'; holdMs: number; grantId?: string }
      | { room: string; reason: 'queue'; acceptMs?: number },
  ): void => {
    if (payload.room !== this.room.name || !this.room.track()) return;
    if (payload.reason === 'queue') {
      this.offered(payload.acceptMs);
      return;
    }
    this.floorHolder = null;
    if (!this.micOn) {
      this.talk(true, payload.grantId);
      this.room.tone('permit');
    }
    clearTimeout(this.openMicTimer);
    this.openMicTimer = setTimeout(() => {
      if (this.micOn && !this.pressed) this.talk(false);
    }, payload.holdMs + 2000);
  };

  /**
   * An all call took this room's floor (broadcast_request, the dispatch console): the microphone is heard
   * here without a press of its own, until the all call ends (or the floor is taken back: `revoked`). True when
   * this room records the call: the page then records it nowhere else.
   */
  broadcast(on: boolean, recording: BroadcastRecording = {}): boolean {
    const track = this.room.track();
    if (!track) return false;
    if (!on) {
      if (this.micOn && !this.pressed) this.talk(false);
      return false;
    }
    if (this.micOn) return false;
    this.floorHolder = null;
    this.room.pressed();
    const records = recording.records !== false && (this.room.recorder?.begin(track, recording.alsoIn) ?? false);
    this.unrecorded = !records;
    this.talk(true, recording.grantId);
    return records;
  }

  /** This transmission is recorded elsewhere (an all call's other channels: its first channel's take). */
  private unrecorded = false;

  /** After a late HTTP report: the socket says the floor is free again. */
  correct(): void {
    if (!this.micOn) releaseFloor(this.room.socket, this.room.name);
  }
}
