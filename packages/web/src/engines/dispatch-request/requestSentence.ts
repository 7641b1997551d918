/**
 * What a member reads of its own dispatch request (issue 49): its place in the queue as an ordinal in the page's
 * language ("1er dans la file", "2nd in line", "3. in der Warteschlange", i18next's ordinal plurals over
 * Intl.PluralRules), who took it and how, a transfer, or how it ended.
 */
import type { DispatchRequest, DispatchRequestState } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';

export type DispatchRequestT = TFunction<'dispatchRequest'>;

/** The states in which a request is over: its card says how for a few seconds, then the button comes back. */
export const ENDED_STATES = ['closed', 'cancelled', 'abandoned', 'expired'] as const satisfies DispatchRequestState[];
export type EndedState = (typeof ENDED_STATES)[number];

export function isEnded(state: DispatchRequestState): state is EndedState {
  return (ENDED_STATES as readonly string[]).includes(state);
}

/** "1st in line": the request's place, 1 for the first. */
export function placeInLine(t: DispatchRequestT, position: number): string {
  return t('card.position', { count: position, ordinal: true });
}

/** The one sentence the card's live region reads out for the request as it is now. */
export function requestSentence(t: DispatchRequestT, request: DispatchRequest): string {
  switch (request.state) {
    case 'waiting':
      return request.position ? placeInLine(t, request.position) : t('card.waiting');
    case 'taken':
      if (!request.heldBy) return t('card.waiting');
      return request.answer === 'channel'
        ? t('card.answersOn', { name: request.heldBy.name, channel: request.channelName })
        : t('card.takenBy', { name: request.heldBy.name });
    case 'transferring':
      if (request.transferTo) return t('card.transferring', { name: request.transferTo.name });
      return request.heldBy ? t('card.takenBy', { name: request.heldBy.name }) : t('card.waiting');
    default:
      return t(`card.${request.state}`);
  }
}

/** A wait as a clock reads it: 0:42, 12:05, 1:02:09. */
export function formatWaited(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
