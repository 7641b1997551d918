/**
 * Trails (issue 28): a user's kept positions (getPositionHistory), their export as GPX or GeoJSON
 * (exportPositions, streamed), and the sweep that forgets them after POSITION_RETENTION_DAYS.
 */
import * as protocol from '@talkgroup/protocol';
import {
  GetPositionHistory,
  POSITION_EXPORT_PATH,
  POSITION_HISTORY_MAX_POINTS,
  PositionExport,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/schema.ts';
import { forbidden } from '../http/errors.ts';
import { authenticate, defineRoutes, parseBody } from '../http/route.ts';
import { EXPORT_TYPES, positionExport } from './export.ts';
import type { Followers } from './followers.ts';
import { startPositionSweep } from './retention.ts';
import type { PositionStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface PositionRoutesServices {
  access: ChannelAccess;
  followers: Followers;
  config: Config;
  db: Db;
  positions: PositionStore;
  sessions: SessionStore;
}

const documentOnly = () => (value: unknown) => ({ value });

/** OpenAPI documentation of the export, which is not a JSON call (the handler checks its body itself). */
const exportOptions = {
  schema: {
    operationId: 'ExportPositions',
    description: `Access: ${PositionExport.access} (${protocol.describeAccess(PositionExport.access)}). Answers application/gpx+xml or application/geo+json. See docs/api.md.`,
    body: PositionExport.body,
    response: { '4xx': protocol.ErrorResponseSchema },
  },
  validatorCompiler: documentOnly,
};

function stamp(date: Date): string {
  return date.toISOString().slice(0, 16).replaceAll(':', '-');
}

export function positionRoutes(app: FastifyInstance, services: PositionRoutesServices): void {
  const { positions, config } = services;
  const route = defineRoutes(app, services.sessions);
  const follow = services.followers;

  route(GetPositionHistory, async ({ body, auth }) => {
    await follow.requireFollowable(auth, [body.userId]);
    const { positions: res, truncated } = await positions.history(
      body.userId,
      { from: body.from, to: body.to },
      POSITION_HISTORY_MAX_POINTS,
    );
    return { success: true, res, truncated };
  });

  app.post(POSITION_EXPORT_PATH, exportOptions, async (req, reply) => {
    const auth = await authenticate(services.sessions, req, PositionExport.access);
    if (!auth) throw forbidden();
    const body = parseBody(PositionExport.body, req.body);
    const owners =
      body.channelId !== undefined
        ? await follow.requireChannelMembers(auth, body.channelId, body.userIds)
        : await follow.requireFollowable(auth, body.userIds ?? []);
    const type = EXPORT_TYPES[body.format];
    const fileName = `positions-${stamp(body.from)}-${stamp(body.to)}.${type.extension}`;
    return reply
      .header('Content-Type', type.mime)
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(positionExport(positions, body.format, owners, body.from, body.to));
  });

  const stopSweep = startPositionSweep(positions, config.positionRetentionMs, (error) =>
    app.log.error({ err: error }, 'position retention sweep failed'),
  );
  app.addHook('onClose', async () => stopSweep());
}
