/**
 * The member's side of the dispatch queue (issue 49): "Appeler le dispatch" on a channel's page (/talk and the
 * console's room), then its request's card (place in line, who took it, a transfer, its end) with "Annuler la
 * demande". The dispatchers' queue is features/dispatch's.
 */
export { DispatchRequestCard, DispatchRequestControl, DispatchRequestLine } from './DispatchRequestControl.tsx';
export { type DispatchRequestHandle, useDispatchRequest } from './useDispatchRequest.ts';
