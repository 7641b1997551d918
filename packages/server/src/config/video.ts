/**
 * Live video's settings from the environment (issue 61): VIDEO_RETENTION_DAYS (30) how long a recorded stream is
 * kept, VIDEO_MAX_BYTES (200 MB) the largest recording a sharing page may upload, VIDEO_REQUEST_SECONDS (120) how
 * long a dispatcher's request for a member's video waits for its answer, VIDEO_PUBLISHER_WAIT_SECONDS (20) how long a
 * viewer waits, through the media server, for the sharer's connection before it is told the video did not come.
 * Issue 69: VIDEO_MAX_KBPS (2,500) the bit rate a sharer's upload may reach over its stream's length (plus 1 MB),
 * VIDEO_UPLOADS_PER_HOUR (20) the uploads one user may make in an hour.
 */
import {
  VIDEO_MAX_BYTES_DEFAULT,
  VIDEO_MAX_KBPS_DEFAULT,
  VIDEO_RETENTION_DAYS_DEFAULT,
  VIDEO_UPLOADS_PER_HOUR_DEFAULT,
} from '@talkgroup/protocol';
import { parseBytes, parseCount, parseDays, parsePositiveSeconds } from './values.ts';

export interface VideoConfig {
  retentionMs: number;
  maxBytes: number;
  requestTtlMs: number;
  publisherWaitMs: number;
  /** kbit/s: a sharer's upload is at most its stream's length at this rate, plus 1 MB. */
  maxKbps: number;
  uploadsPerHour: number;
}

export function parseVideoConfig(env: NodeJS.ProcessEnv): VideoConfig {
  return {
    retentionMs: parseDays('VIDEO_RETENTION_DAYS', env.VIDEO_RETENTION_DAYS, VIDEO_RETENTION_DAYS_DEFAULT) * 86_400_000,
    maxBytes: parseBytes('VIDEO_MAX_BYTES', env.VIDEO_MAX_BYTES, VIDEO_MAX_BYTES_DEFAULT),
    requestTtlMs: parsePositiveSeconds('VIDEO_REQUEST_SECONDS', env.VIDEO_REQUEST_SECONDS, 120) * 1000,
    publisherWaitMs: parsePositiveSeconds('VIDEO_PUBLISHER_WAIT_SECONDS', env.VIDEO_PUBLISHER_WAIT_SECONDS, 20) * 1000,
    maxKbps: parseCount('VIDEO_MAX_KBPS', env.VIDEO_MAX_KBPS, VIDEO_MAX_KBPS_DEFAULT),
    uploadsPerHour: parseCount('VIDEO_UPLOADS_PER_HOUR', env.VIDEO_UPLOADS_PER_HOUR, VIDEO_UPLOADS_PER_HOUR_DEFAULT),
  };
}
