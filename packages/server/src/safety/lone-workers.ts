/**
 * Lone-worker check-ins (issue 60). A member works alone (startLoneWorker, or the server starts it with its first
 * socket when the organisation requires it for its role or one of its channels, issue 69: then it cannot stop it).
 * Every interval the server asks it (`lone_worker_check` and a Web Push); checkIn, or a granted press of the talk
 * button (not a floor an SOS opened), answers.
 * Unanswered, each grace takes one more step: a reminder, then `loneWorkerAlert` to its dispatchers and the
 * administrators, then an SOS with reason 'lone_worker'. The deadlines are rows (lone-worker-store.ts): their
 * sweep (`deadlines`, process/deadline-sweep.ts) takes each step once, on whichever instance comes first, after a
 * restart too.
 */
import type { LoneWorker, SafetySettings, SafetySettingsChange } from '@talkgroup/protocol';
import type { z } from 'zod';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import type { EmergencyAlerts } from '../emergency/alerts.ts';
import type { EventBus } from '../events.ts';
import { conflict, forbidden, HttpError, invalidInput, notFound } from '../http/errors.ts';
import type { Deadlines } from '../process/deadline-sweep.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { UserStore } from '../users/store.ts';
import { type LoneWorkerRow, type LoneWorkerStore, STEP, toLoneWorker } from './lone-worker-store.ts';

/** How long the SOS step waits for its alert before another pass raises it. */
const ESCALATION_RETRY_MS = 30_000;

export const REQUIRED_SENTENCE =
  'Your organisation requires lone-worker protection for your role or one of your channels: it cannot be stopped.';

export function loneWorkers(deps: {
  store: LoneWorkerStore;
  settings: SettingsStore;
  users: UserStore;
  memberships: MembershipStore;
  access: ChannelAccess;
  emergency: EmergencyAlerts;
  events: EventBus;
  minSeconds: number;
  onError: (error: unknown, what: string) => void;
  now?: () => number;
}) {
  const { store, settings, users, events, minSeconds } = deps;
  const now = deps.now ?? Date.now;

  async function requiredFor(userId: number, role: string, safety?: SafetySettings): Promise<boolean> {
    const { loneWorker } = safety ?? (await settings.safety());
    if ((loneWorker.roles as string[]).includes(role)) return true;
    if (loneWorker.channelIds.length === 0) return false;
    const own = await deps.memberships.channelsOfMember(userId);
    return own.some((channel) => loneWorker.channelIds.includes(channel.id));
  }

  async function mine(reader: Reader, row?: LoneWorkerRow) {
    const user = await users.row(reader.userId);
    if (!user) throw notFound('User');
    const required = await requiredFor(user.id, user.role);
    const current = row ?? (await store.get(user.id));
    return { res: current ? toLoneWorker(current, user.display_name, required) : null, required };
  }

  /**
   * Issue 70: the member's lone work as it is now (null: off), to its dispatchers and the administrators, whose
   * consoles show it at once. Never fails what changed it: the change is made, a lost push is logged.
   */
  async function announce(userId: number): Promise<void> {
    try {
      const [row, user, channels] = await Promise.all([
        store.get(userId),
        users.row(userId),
        deps.memberships.channelsOfMember(userId),
      ]);
      const worker = row && user ? toLoneWorker(row, user.display_name, await requiredFor(user.id, user.role)) : null;
      events.emit('loneWorkerChanged', { userId, worker, channelIds: channels.map((channel) => channel.id) });
    } catch (error) {
      deps.onError(error, `the lone-work change of user ${userId}`);
    }
  }

  /** One step of a row whose time came; nothing when another pass or instance took it first. */
  async function step(row: LoneWorkerRow, at: number): Promise<boolean> {
    // A disabled account works no more: its lone work ends rather than raise an alarm nobody can answer.
    const owner = await users.row(row.user_id);
    if (!owner || owner.disabled_at !== null) {
      await store.remove(row.user_id);
      await announce(row.user_id);
      return false;
    }
    const grace = row.grace_seconds * 1000;
    // The SOS step keeps a time until its alert is written: an instance that stops midway leaves it to another.
    const taken = await store.claim(row, at, at + (row.step + 1 >= STEP.escalated ? ESCALATION_RETRY_MS : grace));
    if (!taken) return false;
    if (taken.step === STEP.asked || taken.step === STEP.reminded) {
      const check = {
        dueAt: new Date(at + grace).toISOString(),
        ...(taken.step === STEP.reminded ? { reminder: true } : {}),
      };
      events.emit('loneWorkerCheck', { userId: taken.user_id, check });
      await announce(taken.user_id);
      return true;
    }
    const user = await users.row(taken.user_id);
    if (!user) return true;
    const position = await store.lastPosition(user.id);
    if (taken.step === STEP.missed) {
      const channelIds = (await deps.memberships.channelsOfMember(user.id)).map((channel) => channel.id);
      events.emit('loneWorkerMissed', {
        alert: { userId: user.id, name: user.display_name, lastCheckIn: taken.last_check_in, position },
        channelIds,
      });
      await announce(user.id);
      return true;
    }
    const alert = await deps.emergency.raiseLoneWorker(
      user.id,
      position ? { lat: position.lat, lng: position.lng, accuracy: position.accuracy ?? undefined } : undefined,
    );
    await store.setAlert(user.id, alert?.id ?? null);
    await announce(user.id);
    return true;
  }

  const api = {
    /** Issue 60's settings: any part of them; every interval and grace at least LONE_WORKER_MIN_SECONDS. */
    async setSettings(change: z.output<typeof SafetySettingsChange>): Promise<SafetySettings> {
      const current = await settings.safety();
      const next: SafetySettings = {
        loneWorker: { ...current.loneWorker, ...change.loneWorker },
        manDown: { ...current.manDown, ...change.manDown },
        ambientListening: change.ambientListening ?? current.ambientListening,
        emergencyOpenMic: change.emergencyOpenMic ?? current.emergencyOpenMic,
      };
      // The minimum bounds what is set now: the default grace (120 s) stays below the default minimum.
      for (const field of ['intervalSeconds', 'graceSeconds'] as const)
        if (change.loneWorker?.[field] !== undefined && next.loneWorker[field] < minSeconds)
          throw invalidInput(`loneWorker.${field}: must be at least ${minSeconds} seconds (LONE_WORKER_MIN_SECONDS)`, [
            { field: `loneWorker.${field}`, min: minSeconds, unit: 'seconds' },
          ]);
      next.loneWorker.roles = [...new Set(next.loneWorker.roles)].sort();
      next.loneWorker.channelIds = [...new Set(next.loneWorker.channelIds)].sort((a, b) => a - b);
      return settings.setSafety(next);
    },

    mine,

    /** LONE_WORKER_MIN_SECONDS: the settings form shows it beside its fields (issue 70). */
    minSeconds,

    async start(reader: Reader, intervalSeconds?: number) {
      const user = await users.row(reader.userId);
      if (!user) throw notFound('User');
      const safety = await settings.safety();
      const interval = intervalSeconds ?? safety.loneWorker.intervalSeconds;
      if (interval < minSeconds)
        throw invalidInput(`intervalSeconds: must be at least ${minSeconds} seconds (LONE_WORKER_MIN_SECONDS)`, [
          { field: 'intervalSeconds', min: minSeconds, unit: 'seconds' },
        ]);
      // Required: no longer than the organisation's interval.
      if ((await requiredFor(user.id, user.role, safety)) && interval > safety.loneWorker.intervalSeconds)
        throw invalidInput(
          `intervalSeconds: your organisation asks every ${safety.loneWorker.intervalSeconds} seconds at most`,
        );
      const row = await store.start(user.id, interval, safety.loneWorker.graceSeconds, now());
      await announce(user.id);
      return mine(reader, row);
    },

    /**
     * Issue 69: the lone work the organisation requires of this user, started by the server (its first socket came,
     * from any client) unless it is on already: a running one is not started again (that would answer its check).
     * True when it started it.
     */
    async startIfRequired(userId: number): Promise<boolean> {
      const user = await users.row(userId);
      if (!user || user.disabled_at !== null || (await store.get(userId))) return false;
      const safety = await settings.safety();
      if (!(await requiredFor(user.id, user.role, safety))) return false;
      const { intervalSeconds, graceSeconds } = safety.loneWorker;
      const started = await store.startIfOff(user.id, intervalSeconds, graceSeconds, now());
      if (started) await announce(user.id);
      return started;
    },

    async stop(reader: Reader) {
      const user = await users.row(reader.userId);
      if (!user) throw notFound('User');
      if (await requiredFor(user.id, user.role)) throw forbidden(REQUIRED_SENTENCE);
      await store.remove(user.id);
      await announce(user.id);
      return { res: null, required: false };
    },

    /**
     * "I'm OK": answers whatever step it is at (an SOS already raised stays open for its dispatchers, who are told at
     * once, issue 70).
     */
    async checkIn(reader: Reader) {
      const row = await store.get(reader.userId);
      if (!row) throw conflict('Lone work is not on: there is no check to answer.');
      const answered = await store.checkIn(row, now());
      // Its SOS is written before the row learns its id (step): an answer in between finds the alert itself.
      const open = row.step >= STEP.escalated && row.alert_id === null ? await deps.emergency.mine(reader) : null;
      const alertId = row.alert_id ?? (open?.reason === 'lone_worker' ? open.id : null);
      if (row.step >= STEP.escalated && alertId !== null)
        await deps.emergency
          .reportOk(reader, alertId, { address: null, requestId: null })
          // Closed meanwhile: its dispatchers need no news.
          .catch((error) =>
            error instanceof HttpError && error.statusCode === 409 ? undefined : Promise.reject(error),
          );
      await announce(reader.userId);
      return mine(reader, answered);
    },

    /** Issue 70: "Je vais bien" said on the alert its missed checks raised answers its lone work too. */
    async answeredAlert(userId: number): Promise<void> {
      const row = await store.get(userId);
      if (!row || row.step < STEP.escalated) return;
      await store.checkIn(row, now());
      await announce(userId);
    },

    /** A granted press of the talk button answers too, unless it escalated already (the SOS's own floor). */
    async pressed(userId: number): Promise<void> {
      const row = await store.get(userId);
      if (!row || row.step >= STEP.escalated) return;
      await store.checkIn(row, now(), STEP.escalated);
      await announce(userId);
    },

    /** Administrators: everyone; dispatchers: the members of the channels where they take alerts. */
    async list(reader: Reader, userId?: number): Promise<LoneWorker[]> {
      const scope = await deps.access.channelsWhere(reader, 'channel.alerts');
      const safety = await settings.safety();
      const rows = await store.list(scope);
      const out: LoneWorker[] = [];
      for (const row of rows) {
        if (userId !== undefined && row.user_id !== userId) continue;
        out.push(toLoneWorker(row, row.name, await requiredFor(row.user_id, row.role, safety)));
      }
      return out;
    },

    /** Every step that fell due, once each; one failing row does not keep the others. */
    async stepDue(): Promise<number> {
      const at = now();
      let taken = 0;
      for (const row of await store.due(at)) {
        try {
          if (await step(row, at)) taken += 1;
        } catch (error) {
          deps.onError(error, `the lone-worker step of user ${row.user_id}`);
        }
      }
      return taken;
    },

    nextStepIn: () => store.nextIn(now()),
  };
  /** The lone workers' steps, on whichever instance looks first (process/deadline-sweep.ts). */
  const deadlines: Deadlines = {
    what: 'taking the lone workers’ due steps',
    takeDue: api.stepDue,
    nextIn: api.nextStepIn,
    // What fell due while no instance was up is taken now.
    takeAtStart: true,
  };
  return { ...api, deadlines };
}

export type LoneWorkers = ReturnType<typeof loneWorkers>;
