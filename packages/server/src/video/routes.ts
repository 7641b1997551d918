/**
 * Live video's calls (issue 61; docs/api.md "Live video"): what is live now, a dispatcher's request for a member's
 * video, and the organisation's remoteVideo setting (audited). Registered after real time: the streams and the
 * member's pages are real time's, on any instance. The recordings' calls are recording-routes.ts's. Issue 69:
 * VIDEO_REQUEST_LIMIT requests a minute per caller (429), filming without consent down the ranks only (403), one
 * request pending per member (409) and none without its audit row (503; requests.ts).
 */
import {
  GetLiveVideos,
  GetVideoSettings,
  may,
  mayActOn,
  RequestVideo,
  SetVideoSettings,
  type VideoSettings,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import { talkPagesOf } from '../devices/talk-pages.ts';
import { conflict, forbidden, invalidInput, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { Io } from '../sockets/io.ts';
import type { LiveVideos } from './live.ts';
import type { VideoRequests } from './requests.ts';

export interface VideoRouteServices {
  sessions: SessionStore;
  access: ChannelAccess;
  memberships: MembershipStore;
  users: { row(id: number): Promise<{ display_name: string; role: string } | undefined> };
  settings: { video(): Promise<VideoSettings>; setVideo(settings: VideoSettings): Promise<VideoSettings> };
  audit: AuditStore;
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
  videoLimits: { requests: CallLimiter };
}

export function videoRoutes(
  app: FastifyInstance,
  services: VideoRouteServices,
  realtime: { io: Io; videos: LiveVideos; videoRequests: VideoRequests },
): void {
  const route = defineRoutes(app, services.sessions);
  const { io, videos } = realtime;

  route(GetLiveVideos, async ({ body, auth }) => ({ success: true, res: await videos.list(auth, body.channelId) }));

  route(RequestVideo, async ({ body, auth, req }) => {
    // A dispatcher of the channel or an administrator (403 not_channel_member / not_allowed, 404 for no channel).
    const { channel } = await services.access.require(auth, body.channelId, 'channel.videoWatch');
    if (body.userId === auth.userId) throw invalidInput('userId: one does not ask oneself for one’s video');
    // Issue 69: VIDEO_REQUEST_LIMIT per caller, counted before anything of the member is read.
    await services.videoLimits.requests(auth.userId);
    const [rights, member, requester] = await Promise.all([
      services.memberships.rights(channel.id, body.userId),
      services.users.row(body.userId),
      services.users.row(auth.userId),
    ]);
    if (!rights || !member || !requester) throw notFound('user_not_channel_member');
    const { remoteVideo } = await services.settings.video();
    // Filming without consent goes down the ranks only (issue 69): never an equal or a higher role.
    if (remoteVideo === 'without_consent' && !mayActOn(auth, member.role))
      throw forbidden('video_without_consent_rank');
    if (!may({ role: member.role }, { member: true, canTalk: rights.canTalk }, 'channel.videoShare'))
      throw conflict('video_member_listen_only');
    // Its /talk open, on any instance (a console of the same account does not share a phone's camera).
    if ((await talkPagesOf(io, body.userId)) === 0) throw conflict('video_app_closed');
    const request = await realtime.videoRequests.ask(
      {
        channelId: channel.id,
        room: channel.rtcSession,
        userId: body.userId,
        fromUserId: auth.userId,
        fromName: requester.display_name,
        withoutConsent: remoteVideo === 'without_consent',
      },
      { address: req.ip ?? null, requestId: String(req.id) },
    );
    const { requestId, userId, channelId, withoutConsent } = request;
    return { success: true, res: { requestId, userId, channelId, withoutConsent } };
  });

  route(GetVideoSettings, async () => ({ success: true, res: await services.settings.video() }));

  // Audited with what it was and what it is now, in one transaction with the change.
  route(SetVideoSettings, async ({ body, auth, req }) =>
    services.transaction(async () => {
      const before = await services.settings.video();
      const after = await services.settings.setVideo(body);
      await services.audit.write({
        actorId: auth.userId,
        action: 'settings.video',
        targetType: 'setting',
        targetId: null,
        targetName: 'video',
        changes:
          before.remoteVideo === after.remoteVideo
            ? {}
            : { remoteVideo: { before: before.remoteVideo, after: after.remoteVideo } },
        address: req.ip ?? null,
        requestId: String(req.id),
      });
      return { success: true, ...said('video_settings_saved'), res: after };
    }),
  );
}
