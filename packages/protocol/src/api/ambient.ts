/**
 * Ambient listening (issue 60 item 6; docs/dispatchers/dispatch-console.md "Ambient listening"): where the
 * organisation allows it (`ambientListening` of the safety settings), an administrator or a dispatcher of one of
 * the member's channels (issue 69: down the ranks only) hears the microphone of the member's open /talk, on a peer connection of its own between
 * that page and the console page that started it. It does not go to the channel and takes no floor. It stops on
 * stopAmbientListening, when either page goes, or after AMBIENT_MAX_SECONDS (starting it again renews it).
 */
import { z } from 'zod';
import { call, Id, ok } from '../call.ts';

export const ListeningId = z.string().min(1, 'must not be empty').max(64);

/** A listening as its start answers it. */
export const AmbientListeningSchema = z.object({
  listeningId: z.string(),
  userId: z.number(),
  name: z.string(),
  /**
   * The member's page shows who listens ('announced'); in 'discreet', started by an administrator, it shows nothing.
   * A dispatcher's is always announced (issue 69).
   */
  announced: z.boolean(),
  /** When it stops unless renewed (ISO). */
  expiresAt: z.string(),
  /** Started again by the same page: the same listening, its time renewed. */
  renewed: z.boolean(),
});
export type AmbientListening = z.output<typeof AmbientListeningSchema>;

/**
 * Refused, in this order (issue 69: the caller's rights before anything about the member): oneself (400); a caller
 * who is neither an administrator nor a dispatcher of one of the member's channels (403 `not_allowed`), or whose
 * role is not above the member's (403 `role_not_below_yours`; administrators listen to each other); 'off' (403
 * `ambient_off`); the member's app not open (409). Discreet only when an administrator starts it where the setting
 * is 'discreet'; a renewal follows the setting as it is then (it may announce a listening, never hide one again).
 */
export const StartAmbientListening = call(ok({ res: AmbientListeningSchema }))(
  '/user/api/startAmbientListening',
  'signedIn',
  z.object({ userId: Id }).strict(),
);
/** By the one who started it (or an administrator); 404 for a listening that is over or unknown. */
export const StopAmbientListening = call(
  ok({ res: z.object({ listeningId: z.string(), userId: z.number(), seconds: z.number() }) }),
)('/user/api/stopAmbientListening', 'signedIn', z.object({ listeningId: ListeningId }).strict());

/** Why a listening ended: a stop, its time, a party's page gone, or (issue 69) the organisation turned it off. */
export const AMBIENT_END_REASONS = ['stopped', 'expired', 'closed', 'off'] as const;

export const AmbientDescription = z.object({ listeningId: ListeningId, sdp: z.string().min(1).max(100_000) });
export const AmbientCandidate = z.object({
  listeningId: ListeningId,
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

export interface AmbientStart {
  listeningId: string;
  listener: { userId: number; name: string };
  announced: boolean;
}
export interface AmbientEnd {
  listeningId: string;
  reason: (typeof AMBIENT_END_REASONS)[number];
}

type Ack = (answer: { success: boolean; result?: string }) => void;

/** Relayed only between the member's page and the listener's, for a live listening (events.ts extends these). */
export interface AmbientClientEvents {
  /** The member's page: its offer, with its microphone's track. */
  ambient_offer: (payload: z.input<typeof AmbientDescription>, ack?: Ack) => void;
  /** The listener's page: its answer (receive only). */
  ambient_answer: (payload: z.input<typeof AmbientDescription>, ack?: Ack) => void;
  ambient_candidate: (payload: z.input<typeof AmbientCandidate>, ack?: Ack) => void;
}
export interface AmbientServerEvents {
  /**
   * To the member's sockets: offer your microphone to this listener. Sent again with `announced: true` for a live
   * discreet listening that the organisation's setting (or a renewal) now announces (issue 69).
   */
  ambient_start: (payload: AmbientStart) => void;
  ambient_offer: (payload: z.output<typeof AmbientDescription>) => void;
  ambient_answer: (payload: z.output<typeof AmbientDescription>) => void;
  ambient_candidate: (payload: z.output<typeof AmbientCandidate>) => void;
  /** To both parties: the listening is over. */
  ambient_end: (payload: AmbientEnd) => void;
}
