import { z } from 'zod';
import { call, Empty, Id, OkSchema, ok, type ResponseOf } from '../call.ts';
import { VoiceMessageSchema } from '../entities.ts';
import { VOICE_MAX_DURATION_MS } from '../rules.ts';
import { IsoTime } from './shared.ts';

// Voice history (issue 15; see docs/api.md)
/** Multipart form: audio (the recording), channelId, startedAt, durationMs, clientId?, grantId?, alsoChannelIds?. */
export const UPLOAD_VOICE_MESSAGE_PATH = '/user/api/uploadVoiceMessage';
export const UploadVoiceMessageFields = z.object({
  channelId: Id,
  startedAt: IsoTime,
  durationMs: z.coerce.number().int().min(1).max(VOICE_MAX_DURATION_MS),
  /** The browser's id of this transmission: an upload sent again (the offline outbox) is kept once. */
  clientId: z
    .string()
    .regex(/^[\w-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _')
    .optional(),
  /**
   * The floor grant this transmission was said under, as the floor's answer named it (floor_request,
   * broadcast_request, floor_granted). Without it (an older page), nothing is kept.
   */
  grantId: z
    .string()
    .regex(/^[\w-]{8,64}$/, 'must be the grantId of the floor answer')
    .optional(),
  /**
   * An all call (the dispatch console): the other channels it was heard in, comma-separated ids. The one
   * recording is kept in each of them where the sender held the floor then (issue 37).
   */
  alsoChannelIds: z
    .string()
    .regex(/^\d{1,12}(,\d{1,12}){0,49}$/, 'must be channel ids separated by commas')
    .transform((ids) => [...new Set(ids.split(',').map(Number))])
    .optional(),
});
const UploadVoiceMessageForm = UploadVoiceMessageFields.extend({
  audio: z.file().describe('Opus in WebM or Ogg, recognised by its bytes; at most VOICE_MAX_BYTES (2 MB by default)'),
});
export const UploadVoiceMessage = call(ok({ res: VoiceMessageSchema }))(
  UPLOAD_VOICE_MESSAGE_PATH,
  'channel.talk',
  UploadVoiceMessageForm,
  { encoding: 'multipart/form-data' },
);
export type UploadVoiceMessageResponse = ResponseOf<typeof UploadVoiceMessage>;
export const GetChannelVoiceMessages = call(ok({ res: z.array(VoiceMessageSchema), hasMore: z.boolean() }))(
  '/user/api/getChannelVoiceMessages',
  'channel.read',
  z.object({
    channelId: Id,
    /** Paging, newest first: the transmissions older than this one. */
    beforeId: Id.optional(),
    limit: z.number().int().min(1).max(200).optional(),
  }),
);
export const DeleteVoiceMessage = call(OkSchema)('/user/api/deleteVoiceMessage', 'voice.manage', z.object({ id: Id }));
/** POST, JSON body; answers a zip (audio files and index.csv), streamed. Not a JSON call: documented apart. */
export const VOICE_EXPORT_PATH = '/user/api/exportVoiceMessages';
export const VoiceExport = {
  path: VOICE_EXPORT_PATH,
  access: 'voice.manage' as const,
  body: z.object({
    /** The channel exported; or `callId`. */
    channelId: Id.optional(),
    from: IsoTime,
    to: IsoTime,
    /**
     * A private call's voice instead of a channel's (issue 35): only where the server allows it
     * (PRIVATE_CALLS_AUDITABLE=true), with `reason`, and audited.
     */
    callId: Id.optional(),
    /** Why a private call is exported: required with callId, kept in the audit log. */
    reason: z.string().trim().min(1).max(500).optional(),
  }),
};

// Nothing missed (issue 34): which recorded transmissions a member heard, live or played later.
/** How far back a transmission counts as missed: older ones are history, not news. */
export const MISSED_WINDOW_HOURS = 24;
export const MissedCountSchema = z.object({ channelId: z.number(), count: z.number() });
export type MissedCount = z.output<typeof MissedCountSchema>;
/**
 * The member's missed transmissions: per channel of theirs, the recorded transmissions of the last
 * MISSED_WINDOW_HOURS that others made since the member joined the channel and that none of its pages heard
 * live nor played (`channels`, channels with none left out); with `channelId`, that channel's, oldest first
 * (`res`, at most 100). `busy`: the member's status (Available / Busy).
 */
export const GetMissedTransmissions = call(
  ok({ channels: z.array(MissedCountSchema), res: z.array(VoiceMessageSchema), busy: z.boolean() }),
)('/user/api/getMissedTransmissions', 'signedIn', z.object({ channelId: Id.optional() }));
/** These transmissions were played: heard, for every device of the member. Ids of channels not theirs: ignored. */
export const MarkTransmissionsHeard = call(OkSchema)(
  '/user/api/markTransmissionsHeard',
  'signedIn',
  z.object({ ids: z.array(Id).min(1).max(200) }),
);
/**
 * Available / Busy, as Zello's: while busy, transmissions are not played by the member's pages and go to its
 * missed list; an SOS and a private call still ring.
 */
export const SetAvailability = call(OkSchema)('/user/api/setAvailability', 'signedIn', z.object({ busy: z.boolean() }));

// Scan (issue 34): while /talk is open, the member hears every channel of theirs except those taken out.
export const ScanEntrySchema = z.object({ channelId: z.number(), scan: z.boolean() });
export type ScanEntry = z.output<typeof ScanEntrySchema>;
/** Each of the member's channels (getMyChannels's) and whether /talk hears it while another is on screen. */
export const GetScanList = call(ok({ res: z.array(ScanEntrySchema) }))('/user/api/getScanList', 'signedIn', Empty);
/**
 * Takes one of the member's channels out of the scan (`scan: false`) or puts it back; kept per user, for all
 * its devices (scanListChanged). A channel that is not theirs: 404.
 */
export const SetChannelScan = call(OkSchema)(
  '/user/api/setChannelScan',
  'signedIn',
  z.object({ channelId: Id, scan: z.boolean() }),
);
