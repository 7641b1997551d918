/**
 * The live ambient listenings (issue 60 item 6): who listens to whom, from which session, until when, and, once
 * their pages have spoken, the one socket of each party the signalling may pass between. Nothing else may use a
 * listening: a member reaches only the page that listens to it, and that page only the member's page that offered.
 *
 * Two stores answer alike: this one, in this instance's memory (no REDIS_URL), and redis-listenings.ts, shared by
 * every instance of a deployment, since the member's page, the listener's page and the instance that started the
 * listening may each be another. Either way a listening ends once (a stop, its time running out, a party's page
 * going), and only the instance that ended it tells its `onEnd` listeners. A listening lasts minutes and ends
 * with either page: a restart of a lone instance ends it (its parties' sockets reconnect without it).
 */
import { randomUUID } from 'node:crypto';
import type { AmbientEnd } from '@talkgroup/protocol';

export type EndReason = AmbientEnd['reason'];

export interface Listening {
  id: string;
  userId: number;
  memberName: string;
  listenerId: number;
  listenerName: string;
  /** The session whose page started it: the audio goes to its page, nowhere else. */
  listenerSessionId: number;
  announced: boolean;
  startedAt: number;
  expiresAt: number;
  /** The member's page that offered its microphone (the first to offer). */
  memberSocketId?: string;
  /** The listener's page that answered (the first of its session to answer). */
  listenerSocketId?: string;
}

/** What a start is given: the rest (id, times, sockets) is the store's. */
export type ListeningInput = Omit<Listening, 'id' | 'startedAt' | 'expiresAt' | 'memberSocketId' | 'listenerSocketId'>;

/** Who a socket is, as far as a listening asks. */
export interface Party {
  id: string;
  userId: number;
  sessionId: number;
}

/** Where a relayed signal goes: one socket, or (before the listener's page answered) its session's pages. */
export type RelayTarget = { socketId: string } | { listenerSession: { userId: number; sessionId: number } };

export type SignalKind = 'offer' | 'answer' | 'candidate';

/** Told of an end; what it returns (an audit's write) is awaited before the end's caller goes on. */
export type EndListener = (
  listening: Listening,
  reason: EndReason,
  byUserId: number | undefined,
) => void | Promise<void>;

/** What a start did: a new listening, or a live one renewed (`announcedNow`: that renewal announced it). */
export interface Started {
  listening: Listening;
  renewed: boolean;
  announcedNow: boolean;
}

export interface AmbientListenings {
  readonly maxSeconds: number;
  /**
   * A new listening, or the same listener's live listening of this member renewed (its time starts again). A
   * renewal follows the setting as it is now (issue 69): it may announce a discreet listening, never hide an
   * announced one again (the member's page would say it stopped while it goes on).
   */
  start(input: ListeningInput): Promise<Started>;
  get(id: string): Promise<Listening | undefined>;
  /** Every live listening (issue 69: a change of the setting reaches them all, on every instance). */
  live(): Promise<Listening[]>;
  /** Announces a live discreet listening; the listening when this call announced it, else undefined. */
  announce(id: string): Promise<Listening | undefined>;
  /** Ends it if it is live; the listening ended, or undefined when it was over already (or another ended it). */
  end(id: string, reason: EndReason, byUserId?: number): Promise<Listening | undefined>;
  /**
   * Takes back a listening that never reached anyone (its start's audit row could not be written): gone without
   * telling its `onEnd` listeners.
   */
  discard(id: string): Promise<void>;
  /** Called once for every listening this instance ends, whatever ended it; `end` waits for them. */
  onEnd(listener: EndListener): () => void;
  /**
   * Where `party`'s signal of this kind may go, binding the party's socket on its first signal; undefined when
   * the listening is not live or the party is not the one that may send it (a stranger, the other party's
   * other page, an answer from the member).
   */
  relay(id: string, party: Party, kind: SignalKind): Promise<RelayTarget | undefined>;
  /** A socket went: the listenings it was a party of end. */
  socketClosed(socketId: string): Promise<void>;
  /** Stops this instance's timers (shutdown). In memory the listenings go too, untold: their sockets close. */
  close(): void;
}

/** The `onEnd` listeners of a store. */
export function endListeners() {
  const listeners = new Set<EndListener>();
  return {
    add(listener: EndListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async tell(listening: Listening, reason: EndReason, byUserId?: number): Promise<void> {
      await Promise.all([...listeners].map((listener) => listener(listening, reason, byUserId)));
    },
  };
}

/** The one decision of a relay, on a live listening; `bind` records a party's socket on its first signal. */
export function relayDecision(
  l: Listening,
  party: Party,
  kind: SignalKind,
  bind: (field: 'memberSocketId' | 'listenerSocketId') => void,
): RelayTarget | undefined {
  if (party.userId === l.userId && kind !== 'answer') {
    if (kind === 'offer' && l.memberSocketId === undefined) bind('memberSocketId');
    if (l.memberSocketId !== party.id) return undefined;
    return l.listenerSocketId
      ? { socketId: l.listenerSocketId }
      : { listenerSession: { userId: l.listenerId, sessionId: l.listenerSessionId } };
  }
  const isListener = party.userId === l.listenerId && party.sessionId === l.listenerSessionId;
  if (isListener && kind !== 'offer' && l.memberSocketId !== undefined) {
    if (kind === 'answer' && l.listenerSocketId === undefined) bind('listenerSocketId');
    if (l.listenerSocketId !== party.id) return undefined;
    return { socketId: l.memberSocketId };
  }
  return undefined;
}

/** The listenings in this instance's memory (no REDIS_URL): one instance sees every page. */
export function memoryAmbientListenings(options: { maxSeconds: number }): AmbientListenings {
  const live = new Map<string, { listening: Listening; timer: NodeJS.Timeout }>();
  const ended = endListeners();
  const maxMs = options.maxSeconds * 1000;

  async function end(id: string, reason: EndReason, byUserId?: number): Promise<Listening | undefined> {
    const held = live.get(id);
    if (!held) return undefined;
    clearTimeout(held.timer);
    live.delete(id);
    await ended.tell(held.listening, reason, byUserId);
    return held.listening;
  }

  function arm(listening: Listening): NodeJS.Timeout {
    listening.expiresAt = Date.now() + maxMs;
    const timer = setTimeout(() => void end(listening.id, 'expired'), maxMs);
    timer.unref?.();
    return timer;
  }

  return {
    maxSeconds: options.maxSeconds,
    async start(input) {
      for (const held of live.values())
        if (held.listening.userId === input.userId && held.listening.listenerSessionId === input.listenerSessionId) {
          clearTimeout(held.timer);
          held.timer = arm(held.listening);
          const announcedNow = input.announced && !held.listening.announced;
          if (announcedNow) held.listening.announced = true;
          return { listening: { ...held.listening }, renewed: true, announcedNow };
        }
      const listening: Listening = { ...input, id: randomUUID(), startedAt: Date.now(), expiresAt: 0 };
      live.set(listening.id, { listening, timer: arm(listening) });
      return { listening: { ...listening }, renewed: false, announcedNow: false };
    },
    async get(id) {
      const held = live.get(id);
      return held && { ...held.listening };
    },
    async live() {
      return [...live.values()].map((held) => ({ ...held.listening }));
    },
    async announce(id) {
      const held = live.get(id);
      if (!held || held.listening.announced) return undefined;
      held.listening.announced = true;
      return { ...held.listening };
    },
    end,
    async discard(id) {
      const held = live.get(id);
      if (!held) return;
      clearTimeout(held.timer);
      live.delete(id);
    },
    onEnd: ended.add,
    async relay(id, party, kind) {
      const held = live.get(id);
      if (!held) return undefined;
      return relayDecision(held.listening, party, kind, (field) => {
        held.listening[field] = party.id;
      });
    },
    async socketClosed(socketId) {
      for (const { listening } of [...live.values()])
        if (listening.memberSocketId === socketId || listening.listenerSocketId === socketId)
          await end(listening.id, 'closed');
    },
    close() {
      for (const { timer } of live.values()) clearTimeout(timer);
      live.clear();
    },
  };
}
