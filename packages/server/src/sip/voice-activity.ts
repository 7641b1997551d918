/**
 * A gateway's floor by its voice (issue 51, "Activité vocale"): the floor is asked once voice has lasted the
 * attack time (400 ms by default: a radio's squelch tail or a click is not a transmission) and given back once
 * it has been quiet for the hang time (1.5 s: a pause between two sentences keeps the floor). A radio gateway
 * often stops sending RTP when its squelch closes, so the hang time is also counted by `tick`, without packets.
 */

/** RMS above this (a fraction of full scale: about -40 dBFS) is voice in a G.711 frame. */
export const VOICE_LEVEL = 0.01;
/** An Opus packet of 20 ms carrying voice is larger than this; silence (and DTX) packets are a few bytes. */
export const OPUS_VOICE_BYTES = 20;
/** A gap this short inside voice before the attack time does not start the count again. */
const ATTACK_GAP_MS = 150;

export type VoiceChange = 'press' | 'release' | undefined;

export function voiceActivity(times: { attackMs: number; hangMs: number }) {
  let talking = false;
  let voicedSince: number | undefined;
  let lastVoice = Number.NEGATIVE_INFINITY;
  /** The floor was taken back while it talked: it asks again only after a pause (as a page must let go first). */
  let blocked = false;

  return {
    get talking() {
      return talking;
    },
    /** One frame's verdict (voice or not) at `now`: the change it makes, if any. */
    frame(voiced: boolean, now: number): VoiceChange {
      if (voiced && blocked) lastVoice = now;
      else if (voiced) {
        if (voicedSince === undefined || now - lastVoice > ATTACK_GAP_MS) voicedSince = now;
        lastVoice = now;
        if (!talking && now - voicedSince >= times.attackMs) {
          talking = true;
          return 'press';
        }
        return undefined;
      }
      return this.tick(now);
    },
    /** Time passing without voice (called on a timer too: a gateway may send nothing while quiet). */
    tick(now: number): VoiceChange {
      if (blocked && now - lastVoice >= times.hangMs) blocked = false;
      if (!talking && voicedSince !== undefined && now - lastVoice > ATTACK_GAP_MS) voicedSince = undefined;
      if (talking && now - lastVoice >= times.hangMs) {
        talking = false;
        voicedSince = undefined;
        return 'release';
      }
      return undefined;
    },
    /** The floor was taken back (time limit, preemption): voice must pause for the hang time before it asks again. */
    reset(): void {
      if (talking) blocked = true;
      talking = false;
      voicedSince = undefined;
    },
  };
}

export type VoiceActivity = ReturnType<typeof voiceActivity>;
