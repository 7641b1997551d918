/**
 * Keeps a recorded transmission in its channel's voice history, whoever recorded it (the talker's browser
 * uploading it, or the server recording what the media server received): the row and its audio, the
 * `voice_message` activity at the time it started, and the push to the room.
 */
import type { VoiceMessage } from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { ChannelSummary } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import type { MissedStore } from './missed.ts';
import type { NewVoiceMessage, VoiceStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface KeepServices {
  activities: ActivityStore;
  events: EventBus;
  missed: MissedStore;
  voice: VoiceStore;
}

export async function keepTransmission(
  services: KeepServices,
  channel: Pick<ChannelSummary, 'id' | 'name' | 'rtcSession'> & { hidden?: boolean },
  take: Omit<NewVoiceMessage, 'channelId'>,
): Promise<VoiceMessage> {
  // A clock a little ahead must not put a transmission in the future.
  const startedAt = new Date(Math.min(take.startedAt.getTime(), Date.now()));
  const row = await services.voice.create({ ...take, channelId: channel.id, startedAt });
  // A private call's transmissions are kept for its two parties; the log keeps the call (private_call), not them.
  if (!channel.hidden)
    await services.activities.record('voice_message', {
      userId: take.userId,
      channelId: channel.id,
      channelName: channel.name,
      at: startedAt,
      durationMs: row.duration_ms,
    });
  // Heard live by whoever had a page in the channel (and was not busy); the others' missed lists grow (issue 34).
  if (!channel.hidden) {
    const missing = await services.missed.heardLive(row.id, channel.id, row.user_id);
    if (missing.length > 0) services.events.emit('missedChanged', { userIds: missing, channelIds: [channel.id] });
  }
  // Pushed with a link signed for the talker: every socket in the room may read the channel.
  const message = services.voice.toVoiceMessage(row, take.userId);
  services.events.emit('voiceMessageCreated', { channel, voiceMessage: message });
  return message;
}
