/**
 * The live ambient listenings (issue 60 item 6), in this instance's memory: who listens to whom, from which
 * session, until when, and, once their pages have spoken, the one socket of each party the signalling may pass
 * between. Nothing else may use a listening: a member reaches only the page that listens to it, and that page
 * only the member's page that offered. Kept in memory: a listening lasts minutes and ends with either page, and a
 * restart ends it (its parties' sockets reconnect without it).
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
  timer: NodeJS.Timeout;
}

/** Who a socket is, as far as a listening asks. */
export interface Party {
  id: string;
  userId: number;
  sessionId: number;
}

/** Where a relayed signal goes: one socket, or (before the listener's page answered) its session's pages. */
export type RelayTarget = { socketId: string } | { listenerSession: { userId: number; sessionId: number } };

export type SignalKind = 'offer' | 'answer' | 'candidate';

type EndListener = (listening: Listening, reason: EndReason, byUserId: number | undefined) => void;

export function ambientListenings(options: { maxSeconds: number }) {
  const live = new Map<string, Listening>();
  const endListeners = new Set<EndListener>();
  const maxMs = () => options.maxSeconds * 1000;

  function end(id: string, reason: EndReason, byUserId?: number): Listening | undefined {
    const listening = live.get(id);
    if (!listening) return undefined;
    clearTimeout(listening.timer);
    live.delete(id);
    for (const listener of endListeners) listener(listening, reason, byUserId);
    return listening;
  }

  function arm(listening: Listening): void {
    clearTimeout(listening.timer);
    listening.expiresAt = Date.now() + maxMs();
    listening.timer = setTimeout(() => end(listening.id, 'expired'), maxMs());
    listening.timer.unref?.();
  }

  const isMember = (l: Listening, party: Party) => party.userId === l.userId;
  const isListener = (l: Listening, party: Party) =>
    party.userId === l.listenerId && party.sessionId === l.listenerSessionId;

  return {
    get maxSeconds() {
      return options.maxSeconds;
    },

    /** A new listening, or the same listener's listening of this member renewed (its time starts again). */
    start(input: Omit<Listening, 'id' | 'startedAt' | 'expiresAt' | 'timer'>): {
      listening: Listening;
      renewed: boolean;
    } {
      for (const listening of live.values())
        if (listening.userId === input.userId && listening.listenerSessionId === input.listenerSessionId) {
          arm(listening);
          return { listening, renewed: true };
        }
      const listening: Listening = {
        ...input,
        id: randomUUID(),
        startedAt: Date.now(),
        expiresAt: 0,
        timer: setTimeout(() => {}, 0),
      };
      live.set(listening.id, listening);
      arm(listening);
      return { listening, renewed: false };
    },

    get(id: string): Listening | undefined {
      return live.get(id);
    },

    end,

    /** Called once for every listening that ends, whatever ended it. */
    onEnd(listener: EndListener): () => void {
      endListeners.add(listener);
      return () => endListeners.delete(listener);
    },

    /**
     * Where `party`'s signal of this kind may go, binding the party's socket on its first signal; undefined when
     * the listening is not live or the party is not the one that may send it (a stranger, the other party's
     * other page, an answer from the member).
     */
    relay(id: string, party: Party, kind: SignalKind): RelayTarget | undefined {
      const l = live.get(id);
      if (!l) return undefined;
      if (isMember(l, party) && kind !== 'answer') {
        if (kind === 'offer' && l.memberSocketId === undefined) l.memberSocketId = party.id;
        if (l.memberSocketId !== party.id) return undefined;
        return l.listenerSocketId
          ? { socketId: l.listenerSocketId }
          : { listenerSession: { userId: l.listenerId, sessionId: l.listenerSessionId } };
      }
      if (isListener(l, party) && kind !== 'offer' && l.memberSocketId !== undefined) {
        if (kind === 'answer' && l.listenerSocketId === undefined) l.listenerSocketId = party.id;
        if (l.listenerSocketId !== party.id) return undefined;
        return { socketId: l.memberSocketId };
      }
      return undefined;
    },

    /** A socket went: the listenings it was a party of end. */
    socketClosed(socketId: string): void {
      for (const listening of [...live.values()])
        if (listening.memberSocketId === socketId || listening.listenerSocketId === socketId)
          end(listening.id, 'closed');
    },

    /** Ends every listening (shutdown), without telling: the sockets close too. */
    close(): void {
      for (const listening of live.values()) clearTimeout(listening.timer);
      live.clear();
    },
  };
}

export type AmbientListenings = ReturnType<typeof ambientListenings>;
