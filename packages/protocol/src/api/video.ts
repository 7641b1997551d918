/**
 * Live video from a member's phone to the dispatch console (issue 61; docs/api.md "Live video"). A page in a
 * channel starts a stream (`video_start`, answered at once with its streamId, before any media); its audience is
 * told (`video_started`, `video_ended`): the channel's dispatchers and the administrators, or every member of the
 * channel where its `videoAudience` is `channel`; a private call's stream only its other party. Without a media
 * server the video goes peer to peer from the sharing page to each viewer (`video_watch`, then the
 * `video_offer` / `video_answer` / `video_candidate` relay), at most VIDEO_MESH_MAX_VIEWERS (rules.ts) at once. A dispatcher
 * asks a member for its video (`requestVideo`); the page records the stream and uploads it after (`uploadVideo`),
 * and the channel's history lists it (`getChannelVideos`). Video never takes the floor.
 */
import { z } from 'zod';
import { call, Empty, Id, ok } from '../call.ts';

/** Whether a dispatcher's request asks the member first (`consent`, the default) or starts without asking. */
export const REMOTE_VIDEO_MODES = ['consent', 'without_consent'] as const;
export type RemoteVideoMode = (typeof REMOTE_VIDEO_MODES)[number];
export const VideoSettingsSchema = z.object({ remoteVideo: z.enum(REMOTE_VIDEO_MODES) });
export type VideoSettings = z.output<typeof VideoSettingsSchema>;
export const VIDEO_SETTINGS_DEFAULTS: VideoSettings = { remoteVideo: 'consent' };

/**
 * Why a stream ended: its sharer stopped it, its sharer's page left the channel or went, or the server ended it.
 * `no_right` (issue 69) is told to one viewer only: it may no longer watch (removed from the channel, its role
 * changed, the channel's videoAudience narrowed); the stream goes on for the others.
 */
export const VIDEO_END_REASONS = ['stopped', 'left', 'closed', 'no_right'] as const;
export type VideoEndReason = (typeof VIDEO_END_REASONS)[number];
/** How a stream reaches its viewers: peer to peer from the sharing page, or through Janus's VideoRoom (JANUS_URL). */
export const VIDEO_PATHS = ['mesh', 'server'] as const;
export type VideoPath = (typeof VIDEO_PATHS)[number];
/**
 * Through the media server, the layer of the sharer's simulcast a viewer receives: `low` in a console tile, `high`
 * in the full view.
 */
export const VIDEO_LAYERS = ['low', 'high'] as const;
export type VideoLayer = (typeof VIDEO_LAYERS)[number];
/**
 * Who recorded a kept stream (issue 69): the media server (`server`, every stream that went through it: the sharer's
 * upload is refused) or the sharing page (`sharer`, peer to peer, uploaded after the stream).
 */
export const VIDEO_SOURCES = ['server', 'sharer'] as const;
export type VideoSource = (typeof VIDEO_SOURCES)[number];
/** The longest recording kept of one stream. */
export const VIDEO_MAX_DURATION_MS = 4 * 3600 * 1000;

export const StreamId = z.string().regex(/^[\w-]{8,64}$/, 'must be the streamId video_start answered');
export const VideoRequestId = z.string().regex(/^[\w-]{8,64}$/, 'must be the requestId requestVideo answered');

/** A stream live now, as getLiveVideos lists it. */
export const LiveVideoSchema = z.object({
  streamId: z.string(),
  channelId: z.number(),
  /** The channel's room key (rtcSession). */
  room: z.string(),
  userId: z.number(),
  name: z.string(),
  startedAt: z.string(),
  /** Pages watching it now (peer to peer: at most `maxViewers`). */
  viewers: z.number(),
  /** Null through the media server: no cap. */
  maxViewers: z.number().nullable(),
  /** Peer to peer from the sharing page (`mesh`), or through the media server's VideoRoom (`server`). */
  via: z.enum(VIDEO_PATHS),
});
export type LiveVideo = z.output<typeof LiveVideoSchema>;

/** A recorded stream of a channel's history. */
export const VideoRecordingSchema = z.object({
  id: z.number(),
  channelId: z.number(),
  streamId: z.string(),
  /** Null once the account is deleted (the name stays). */
  userId: z.number().nullable(),
  name: z.string(),
  startedAt: z.string(),
  /** From the stream's start to its end, as the server saw them (never the sharer's own count). */
  durationMs: z.number(),
  /** A link signed for the reader (like a voice message's), expiring. */
  url: z.string(),
  /** SHA-256 of the kept file (hex), written when it was kept; null for one kept before issue 69. */
  sha256: z.string().nullable(),
  /** Who recorded it; null for one kept before issue 69. */
  source: z.enum(VIDEO_SOURCES).nullable(),
});
export type VideoRecording = z.output<typeof VideoRecordingSchema>;

/** What is live now in the reader's channels that the reader may watch (optionally in one channel). */
export const GetLiveVideos = call(ok({ res: z.array(LiveVideoSchema) }))(
  '/user/api/getLiveVideos',
  'signedIn',
  z.object({ channelId: Id.optional() }).strict(),
);
/**
 * A dispatcher of the channel (or an administrator) asks a member of it for its video: the member's pages get
 * `video_request`; with `remoteVideo: 'without_consent'` they start without asking (`withoutConsent: true`).
 */
export const RequestVideo = call(
  ok({
    res: z.object({ requestId: z.string(), userId: z.number(), channelId: z.number(), withoutConsent: z.boolean() }),
  }),
)('/user/api/requestVideo', 'channel.videoWatch', z.object({ userId: Id, channelId: Id }).strict());
export const GetVideoSettings = call(ok({ res: VideoSettingsSchema }))('/user/api/getVideoSettings', 'signedIn', Empty);
export const SetVideoSettings = call(ok({ res: VideoSettingsSchema }))(
  '/user/api/setVideoSettings',
  'settings.manage',
  VideoSettingsSchema.strict(),
);
/** Newest first; a reader outside the channel's audience sees only its own streams. */
export const GetChannelVideos = call(ok({ res: z.array(VideoRecordingSchema), hasMore: z.boolean() }))(
  '/user/api/getChannelVideos',
  'channel.read',
  z
    .object({
      channelId: Id,
      /** Paging, newest first: the recordings older than this one. */
      beforeId: Id.optional(),
      limit: z.number().int().min(1).max(200).optional(),
    })
    .strict(),
);

/**
 * Multipart form: streamId (the stream it recorded) and durationMs (the page's count, not kept: the server keeps its
 * own), then the file, video (the recording, WebM): the fields come first, so that the server checks the stream and
 * the sender before it writes a byte (issue 69).
 */
export const UPLOAD_VIDEO_PATH = '/user/api/uploadVideo';
export const UploadVideoFields = z.object({
  streamId: StreamId,
  durationMs: z.coerce.number().int().min(1).max(VIDEO_MAX_DURATION_MS).optional(),
});
export const UploadVideo = call(ok({ res: VideoRecordingSchema }))(
  UPLOAD_VIDEO_PATH,
  'channel.videoShare',
  UploadVideoFields.extend({
    video: z
      .file()
      .describe(
        'WebM (VP8, VP9, AV1 or H.264), recognised by its bytes, after the fields; at most the stream’s length at VIDEO_MAX_KBPS plus 1 MB, and VIDEO_MAX_BYTES',
      ),
  }),
  { encoding: 'multipart/form-data' },
);

// Socket payloads (validated by the server; unknown fields are dropped).
export const VideoStart = z.object({
  room: z.string().min(1).max(200),
  /** The request this stream answers (a dispatcher's requestVideo): starting it accepts the request. */
  requestId: VideoRequestId.optional(),
});
export const VideoStop = z.object({ room: z.string().max(200).optional(), streamId: StreamId });
export const VideoWatch = z.object({ streamId: StreamId });
export const VideoRequestAnswer = z.object({ requestId: VideoRequestId, accepted: z.boolean() });
/** `viewerSocketId`: from the sharer's page, the viewer it is for; a viewer's page leaves it out. */
const ViewerSocketId = z.string().min(1).max(100).optional();
export const VideoDescription = z.object({
  streamId: StreamId,
  viewerSocketId: ViewerSocketId,
  sdp: z.string().min(1).max(100_000),
});
/** Through the media server: the sharing page's offer (its camera, simulcast), answered by Janus in the ack. */
export const VideoPublish = z.object({ streamId: StreamId, sdp: z.string().min(1).max(100_000) });
/** Through the media server: the layer this viewer's page receives of a stream it watches. */
export const VideoLayerChoice = z.object({ streamId: StreamId, layer: z.enum(VIDEO_LAYERS) });
export const VideoCandidate = z.object({
  streamId: StreamId,
  viewerSocketId: ViewerSocketId,
  /** An RTCIceCandidateInit; null: gathering is complete. */
  candidate: z
    .object({
      candidate: z.string().max(2000),
      sdpMid: z.string().max(64).nullable().optional(),
      sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
      usernameFragment: z.string().max(256).nullable().optional(),
    })
    .nullable(),
});

export interface VideoStarted {
  room: string;
  channelId: number;
  streamId: string;
  userId: number;
  name: string;
  startedAt: string;
  /** The dispatcher's request this stream answers, if any. */
  requestId?: string;
}
export interface VideoEnded {
  room: string;
  channelId: number;
  streamId: string;
  reason: VideoEndReason;
}
export interface VideoUnavailable {
  streamId: string;
  code: 'video_unpublished';
  /** The sentence in the language of the viewer's handshake. */
  result: string;
}
export interface VideoRequest {
  requestId: string;
  channelId: number;
  room: string;
  fromUserId: number;
  /** The requester's display name: "{name} asks for your video". */
  name: string;
  /** The organisation's remoteVideo is 'without_consent': start without asking ("you are being watched"). */
  withoutConsent: boolean;
}

/** A refusal a socket action answers: the sentence in the handshake's language, its code and an HTTP-like status. */
export interface VideoRefusal {
  success: false;
  result: string;
  code?: string;
  status?: number;
}
type Ack = (answer: { success: boolean; result?: string }) => void;

export interface VideoClientEvents {
  /** Starts a stream in one of the socket's channels: answered at once with its streamId. */
  video_start: (
    payload: z.input<typeof VideoStart>,
    ack?: (
      answer: { success: true; streamId: string; maxViewers: number | null; via: VideoPath } | VideoRefusal,
    ) => void,
  ) => void;
  /** Through the media server (`via: 'server'`): the sharer's offer; the ack carries Janus's answer. */
  video_publish: (
    payload: z.input<typeof VideoPublish>,
    ack?: (answer: { success: true; sdp: string } | VideoRefusal) => void,
  ) => void;
  /** Through the media server: the layer this page receives (`low` in a tile, `high` in full view). */
  video_layer: (payload: z.input<typeof VideoLayerChoice>, ack?: Ack) => void;
  video_stop: (payload: z.input<typeof VideoStop>, ack?: Ack) => void;
  /** A viewer asks to watch a stream (peer to peer): the sharer's page then offers (`video_offer`). */
  video_watch: (
    payload: z.input<typeof VideoWatch>,
    ack?: (answer: { success: true; streamId: string } | VideoRefusal) => void,
  ) => void;
  /** The viewer stops watching (its place goes to another). */
  video_unwatch: (payload: z.input<typeof VideoWatch>, ack?: Ack) => void;
  /** The member's answer to a dispatcher's request (`video_request`). */
  video_request_answer: (payload: z.input<typeof VideoRequestAnswer>, ack?: Ack) => void;
  /**
   * From the sharer's page to one viewer (with viewerSocketId). Through the media server a viewer's page gets the
   * server's offer after `video_watch` and answers it with `video_answer`; candidates go to the server.
   */
  video_offer: (payload: z.input<typeof VideoDescription>, ack?: Ack) => void;
  /** From a viewer's page to the sharer's. */
  video_answer: (payload: z.input<typeof VideoDescription>, ack?: Ack) => void;
  /** Either way: from the sharer with viewerSocketId, from a viewer without. */
  video_candidate: (payload: z.input<typeof VideoCandidate>, ack?: Ack) => void;
}

export interface VideoServerEvents {
  /** To the stream's audience and the sharer's own pages. */
  video_started: (payload: VideoStarted) => void;
  video_ended: (payload: VideoEnded) => void;
  /** To the member's pages: a dispatcher asks for its video. */
  video_request: (payload: VideoRequest) => void;
  /**
   * To the requester's pages: the member's answer (a start that answers the request counts as `accepted`), or no
   * answer in time (`accepted: false, expired: true`, after VIDEO_REQUEST_SECONDS).
   */
  video_request_answered: (payload: {
    requestId: string;
    userId: number;
    accepted: boolean;
    expired?: boolean;
  }) => void;
  /** To the member's pages: the request is over (answered on one of them, started, or expired): its question goes. */
  video_request_closed: (payload: {
    requestId: string;
    reason: 'accepted' | 'declined' | 'started' | 'expired';
  }) => void;
  /** To the sharer's socket: a viewer wants the stream: offer it (`video_offer` with its viewerSocketId). */
  video_viewer: (payload: { streamId: string; viewerSocketId: string; userId: number; name: string }) => void;
  /** To the sharer's socket: that viewer went (close its peer connection). */
  video_viewer_left: (payload: { streamId: string; viewerSocketId: string }) => void;
  /** To the viewer: the sharer's offer. To the sharer (with viewerSocketId): the viewer's answer. */
  video_offer: (payload: { streamId: string; sdp: string }) => void;
  video_answer: (payload: { streamId: string; viewerSocketId: string; sdp: string }) => void;
  video_candidate: (payload: z.output<typeof VideoCandidate>) => void;
  /**
   * Through the media server, to a viewer let in: no subscription could be made (the sharer's connection to Janus
   * did not come up in time, `video_unpublished`): its place is freed, its page may `video_watch` again.
   */
  video_unavailable: (payload: VideoUnavailable) => void;
}
