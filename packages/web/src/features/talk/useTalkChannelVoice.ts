/**
 * The push-to-talk of a /talk channel page: a press talks on this channel, or, within a moment of another
 * channel's transmission, answers there (scan.tsx's talk-back); who is talking now, as the page and the
 * lock screen's media controls (Media Session) say it.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { RoomChannel, useRoom } from '../../engines/room/index.ts';
import { useScan } from './scan.tsx';
import { useMediaSession } from './useMediaSession.ts';

export function useTalkChannelVoice(room: ReturnType<typeof useRoom>, channel: RoomChannel) {
  const { t } = useTranslation('talk');
  const { voice } = room;
  const { state } = voice;
  const canTalk = state.micReady && state.joined && !room.listenOnly;

  const scan = useScan();
  const scanRef = useRef(scan);
  scanRef.current = scan;
  /** Where the press being held talks: a scanned channel (talk-back), or null: this one. */
  const talkingBackOn = useRef<number | null>(null);
  const talk = useCallback(
    (on: boolean) => {
      if (!on && talkingBackOn.current !== null) {
        scanRef.current.talk(talkingBackOn.current, false);
        talkingBackOn.current = null;
        return;
      }
      // Within a moment of another channel's transmission, a press answers there (talk-back).
      const reply = on ? scanRef.current.replyTo : null;
      if (reply && scanRef.current.talk(reply.channelId, true)) {
        talkingBackOn.current = reply.channelId;
        return;
      }
      if (!canTalk && on) return;
      voice.engine?.setMicEnabled(on);
    },
    [canTalk, voice.engine],
  );

  const talkers = state.peers.filter((peer) => peer.talking).map((peer) => peer.name || t('channel.unnamed'));
  // A transmission on this channel after another channel's: a press talks here again.
  const talkedHere = talkers.length > 0 || state.micOn;
  const { endTalkBack } = scan;
  useEffect(() => {
    if (talkedHere) endTalkBack();
  }, [talkedHere, endTalkBack]);
  const micOn = state.micOn || scan.talkingOn !== null;
  const heardElsewhere = scan.heard.map((entry) => `${entry.name} · ${entry.talkers.join(', ')}`).join(' / ');
  // The lock screen and the system's media controls name the channel and who is talking now.
  useMediaSession({
    title: channel.name,
    artist: micOn ? t('channel.youAreTalking') : talkers.length ? talkers.join(', ') : heardElsewhere || 'Talkgroup',
    talking: micOn,
    onTalk: talk,
  });
  const talkingNow = micOn
    ? t('channel.youAreTalking')
    : talkers.length
      ? t('channel.talkingNow', { names: talkers.join(', ') })
      : t('channel.nobodyTalking');
  return {
    talk,
    micOn,
    /** Someone (this member or another) talks here now: the "talking now" line turns red. */
    anyoneTalking: micOn || talkers.length > 0,
    talkingNow,
    /** A press may talk: here, or on the channel heard a moment ago (talk-back). */
    canPress: canTalk || scan.replyTo !== null,
    /** While talk-back is open, the button names where a press answers ("Reply on Atelier"). */
    replyLabel: scan.replyTo ? t('scan.replyOn', { channel: scan.replyTo.name }) : undefined,
    /** The floor's holder, unless a press would answer on another channel. */
    heldBy: scan.replyTo ? null : state.floorHolder,
    /** Issue 59: this channel's floor queue, offer or interruption, unless a press would answer elsewhere. */
    wait: scan.replyTo ? null : state.floorWait,
    cancelWait: voice.engine?.cancelFloorQueue,
  };
}
