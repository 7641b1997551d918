/**
 * What HTTP routes push to connected clients. The Socket.IO server implements it (realtime/socket-server.ts);
 * until it is attached, pushes go nowhere, which is right for tests that use app.inject only.
 */
import type { ServerToClientEvents } from '@talkgroup/protocol';

export type EventName = keyof ServerToClientEvents;
export type EventArgs<E extends EventName> = Parameters<ServerToClientEvents[E]>;

export interface Notifier {
  /** To every administrator's sockets. */
  toAdmins<E extends EventName>(event: E, ...args: EventArgs<E>): void;
  /** To every socket in a channel's room (by rtcSession). */
  toRoom<E extends EventName>(rtcSession: string, event: E, ...args: EventArgs<E>): void;
  /** To every socket of one user. */
  toUser<E extends EventName>(userId: number, event: E, ...args: EventArgs<E>): void;
  /** Closes every socket of a user (its tokens were revoked or it was deleted). */
  disconnectUser(userId: number): void;
}

export class SwitchableNotifier implements Notifier {
  target: Notifier | undefined;
  toAdmins<E extends EventName>(event: E, ...args: EventArgs<E>) {
    this.target?.toAdmins(event, ...args);
  }
  toRoom<E extends EventName>(rtcSession: string, event: E, ...args: EventArgs<E>) {
    this.target?.toRoom(rtcSession, event, ...args);
  }
  toUser<E extends EventName>(userId: number, event: E, ...args: EventArgs<E>) {
    this.target?.toUser(userId, event, ...args);
  }
  disconnectUser(userId: number) {
    this.target?.disconnectUser(userId);
  }
}
