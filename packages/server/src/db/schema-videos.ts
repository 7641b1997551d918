/** Live video's streams and their recordings (migration 0043, issue 61). Times are ISO 8601 UTC strings. */
import type { ColumnType, Generated } from 'kysely';

export interface VideosTable {
  id: Generated<number>;
  /** The id video_start answered: the upload of its recording names it. */
  stream_id: string;
  channel_id: number;
  /** Null once the account is deleted. */
  user_id: number | null;
  user_display_name: string;
  started_at: string;
  /** Null while the stream is live (or its instance went without ending it). */
  ended_at: string | null;
  /** The dispatcher's request the stream answered. */
  request_id: string | null;
  /** 1: started by a request without the member's consent (remoteVideo 'without_consent'). */
  without_consent: ColumnType<number, number | undefined, number>;
  /** Null until the recording is uploaded; then its file under DATA_DIR/video/<channel id>/. */
  file_name: string | null;
  mime: string | null;
  size_bytes: number | null;
  duration_ms: number | null;
  uploaded_at: string | null;
  /** Who records it (issue 69): 'server' (through the media server) or 'sharer' (peer to peer); null before 0044. */
  source: 'server' | 'sharer' | null;
  /** The kept file's SHA-256 (hex), written with it; null before 0044. */
  sha256: string | null;
}
