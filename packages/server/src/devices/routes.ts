/**
 * A member's device (issue 60 items 4 and 5; docs/api.md "Devices"): its latest status and a fresh one asked of its
 * open pages (administrators, and the dispatchers of its channels, down the ranks only: devices/watchers.ts), and,
 * for administrators, a user's sessions and the remote disable of one of them. Issue 69: a disable is audited
 * (`session.disable_device`) in its own transaction, with the passkeys registered from that session, and its
 * device is told only once that is committed. Registered after real time: asking a phone and disabling one reach
 * sockets on any instance.
 */
import { DisableDevice, GetDeviceStatus, GetUserSessions, RequestDeviceStatus } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { PasskeyService } from '../auth/passkeys.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { describeUserAgent } from '../auth/user-agent.ts';
import type { Db } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { Io } from '../sockets/io.ts';
import { userRoom } from '../sockets/room-names.ts';
import { disableDeviceSockets } from '../sockets/sessions.ts';
import type { DeviceStatusStore } from './store.ts';
import { talkPagesOf } from './talk-pages.ts';
import { type DeviceWatcherServices, deviceWatchers } from './watchers.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface DeviceServices extends DeviceWatcherServices {
  db: Db;
  deviceStatuses: DeviceStatusStore;
  sessions: SessionStore;
  passkeys: Pick<PasskeyService, 'removeOfSession'>;
  audit: Pick<AuditStore, 'write'>;
  /** Runs `work` in one transaction that the stores follow. */
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
}

/** "Chrome · Android" from a session's user agent; the user agent itself when it names neither; else empty. */
export function deviceName(userAgent: string | null): string {
  const { browser, system } = describeUserAgent(userAgent);
  return [browser, system].filter(Boolean).join(' · ') || (userAgent ?? '');
}

export function deviceRoutes(app: FastifyInstance, services: DeviceServices, realtime: { io: Io }): void {
  const { sessions, deviceStatuses, db } = services;
  const { io } = realtime;
  const route = defineRoutes(app, sessions);
  const watchers = deviceWatchers(services);
  /** The member's /talk pages connected now, on any instance. */
  const openPages = (userId: number) => talkPagesOf(io, userId);

  route(RequestDeviceStatus, async ({ body, auth }) => {
    await watchers.require(auth, body.userId);
    const appOpen = (await openPages(body.userId)) > 0;
    // Its open /talk answers with `device_status`, pushed to whoever watches the member.
    if (appOpen) io.to(userRoom(body.userId)).emit('device_status_request');
    return { success: true, res: { userId: body.userId, appOpen } };
  });

  route(GetDeviceStatus, async ({ body, auth }) => {
    await watchers.require(auth, body.userId);
    const latest = await deviceStatuses.latest(body.userId);
    if (!latest) return { success: true, res: null };
    const { sessionId: _session, ...status } = latest;
    return { success: true, res: { ...status, appOpen: (await openPages(body.userId)) > 0 } };
  });

  route(GetUserSessions, async ({ body }) => {
    const user = await services.users.row(body.userId);
    if (!user) throw notFound('user_not_found');
    const rows = await sessions.listOf(body.userId);
    return {
      success: true,
      res: rows.map((row) => ({
        sessionId: row.id,
        device: deviceName(row.user_agent),
        lastSeen: new Date(row.last_seen_at ?? row.created_at).toISOString(),
        address: row.address,
        createdAt: new Date(row.created_at).toISOString(),
        method: row.method,
      })),
    };
  });

  route(DisableDevice, async ({ body, auth, req }) => {
    const owner = await sessions.ownerOf(body.sessionId);
    const session =
      owner === undefined ? undefined : (await sessions.listOf(owner)).find((s) => s.id === body.sessionId);
    if (owner === undefined || !session) throw notFound('session_not_found');
    const device = deviceName(session.user_agent);
    // One transaction: its audit row, its passkeys, its push subscription (no notification reaches a lost phone
    // again) and the session itself; a row that cannot be written leaves the device as it was.
    const passkeysRemoved = await services.transaction(async () => {
      const user = await services.users.row(owner);
      const removed = await services.passkeys.removeOfSession(body.sessionId);
      await db.deleteFrom('push_subscriptions').where('session_id', '=', body.sessionId).execute();
      await sessions.revoke(body.sessionId);
      await services.audit.write({
        actorId: auth.userId,
        action: 'session.disable_device',
        targetType: 'user',
        targetId: owner,
        targetName: user?.display_name ?? null,
        changes: Object.fromEntries(
          Object.entries({ sessionId: body.sessionId, device, passkeysRemoved: removed }).map(([k, v]) => [
            k,
            { before: null, after: v },
          ]),
        ),
        address: req.ip ?? null,
        requestId: String(req.id),
      });
      return removed;
    });
    // Committed: its pages are told (they wipe their storage) and closed, on every instance.
    await disableDeviceSockets(io, owner, body.sessionId);
    return {
      success: true,
      ...said('device_disabled'),
      res: { userId: owner, sessionId: body.sessionId, device, passkeysRemoved },
    };
  });
}
