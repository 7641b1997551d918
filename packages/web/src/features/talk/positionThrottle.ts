/**
 * Which of the phone's positions are worth sending: watchPosition fires often, and GPS jitter moves a
 * standing phone by metres. A position goes out when it is the first, or when both enough time has passed
 * and the phone has really moved (protocol: POSITION_REPORT_MIN_INTERVAL_MS, POSITION_REPORT_MIN_DISTANCE_M).
 */
import { POSITION_REPORT_MIN_DISTANCE_M, POSITION_REPORT_MIN_INTERVAL_MS } from '@talkgroup/protocol';

export interface ReportedPosition {
  lat: number;
  lng: number;
  /** Milliseconds since the epoch. */
  at: number;
}

const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function shouldReport(
  last: ReportedPosition | null,
  next: ReportedPosition,
  { minIntervalMs = POSITION_REPORT_MIN_INTERVAL_MS, minDistanceM = POSITION_REPORT_MIN_DISTANCE_M } = {},
): boolean {
  if (!last) return true;
  if (next.at - last.at < minIntervalMs) return false;
  return distanceMetres(last, next) > minDistanceM;
}
