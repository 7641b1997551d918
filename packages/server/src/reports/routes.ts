/**
 * Reports (issue 50, docs/api.md "Reports"): getReport over a period, for administrators (every channel) and
 * dispatchers (the channels they hold `channel.reports` in: their own); the guard refuses members (403) from
 * the capability. The measures are the store's (store.ts), read away from the main thread and the server's
 * pool (reader.ts), one report per user and two per server at a time (gate.ts; issue 57).
 */
import { GetReport } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { defineRoutes, type TokenOwner } from '../http/route.ts';
import { type SettingsStore, serverTimeZone } from '../settings/store.ts';
import { reportGate } from './gate.ts';
import type { ReportReader } from './reader.ts';
import type { ReportStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ReportServices {
  reports: ReportStore;
  reportReader: ReportReader;
  access: ChannelAccess;
  settings: SettingsStore;
  sessions: SessionStore;
}

/** The organisation's time zone (the `timeZone` setting, getTimeZone), by default the server's. */
async function organisationTimeZone(settings: SettingsStore): Promise<string> {
  return (await settings.timeZone()) ?? serverTimeZone();
}

export function reportRoutes(app: FastifyInstance, services: ReportServices): void {
  const { reports, access, settings } = services;
  const route = defineRoutes(app, services.sessions);
  const gate = reportGate();
  app.addHook('onClose', () => services.reportReader.close());

  /**
   * The channels a report covers: null for every channel (one who holds `channel.reports` everywhere), else a
   * list. Those asked must be among the caller's: 403 naming the others (a dispatcher learns nothing of whether
   * they exist); an administrator asking for a channel that does not exist (or a private call's) gets 404.
   */
  async function channelsOf(auth: TokenOwner, asked: number[] | undefined): Promise<number[] | null> {
    const allowed = await access.channelsWhere(auth, 'channel.reports');
    if (asked === undefined) return allowed ?? null;
    const wanted = [...new Set(asked)];
    if (allowed !== undefined) {
      const own = new Set(allowed);
      const refused = wanted.filter((id) => !own.has(id));
      if (refused.length > 0) throw new HttpError(403, 'report_channel_not_allowed', { ids: refused.join(', ') });
      return wanted;
    }
    const found = await reports.channels({ channelIds: wanted });
    if (found.length < wanted.length) throw notFound('channel_not_found');
    return wanted;
  }

  route(GetReport, async ({ body, auth }) => {
    const scope = {
      from: new Date(body.from).toISOString(),
      to: new Date(body.to).toISOString(),
      channelIds: await channelsOf(auth, body.channelIds),
      timeZone: body.timeZone ?? (await organisationTimeZone(settings)),
    };
    // Looked up at each report, not kept: a test puts its own reader in place (reports-reader.test.ts).
    const { measures } = await gate.run(auth.userId, () => services.reportReader.read(scope));
    const { from, to, timeZone } = scope;
    return { success: true, res: { from, to, timeZone, ...measures } };
  });
}
