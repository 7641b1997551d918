/**
 * Where a reported position is with respect to a fence's edge, in metres, and which side a fix decides once
 * its accuracy is taken into account. Distances are measured on a plane tangent to the Earth at the position
 * (fences are at most a degree wide: the error stays far below a fix's own).
 */
import type { GeofenceShape } from '@talkgroup/protocol';

const EARTH_RADIUS_M = 6_371_008.8;
const RADIANS = Math.PI / 180;

/**
 * A fix decides a side only when it is at least this far past the edge, and farther than its accuracy: a phone
 * standing on the edge, whose fixes wander by their accuracy, never flips the side back and forth.
 */
export const EDGE_MARGIN_MIN_M = 15;
/** A fix without an accuracy is taken as this good. */
export const ASSUMED_ACCURACY_M = 25;
/** Fixes worse than this (a cell tower's guess) decide nothing. */
export const WORST_USABLE_ACCURACY_M = 500;

export interface Fix {
  lat: number;
  lng: number;
  accuracy: number | null;
}

/** Great-circle distance in metres (haversine). */
export function distanceM(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const dLat = (bLat - aLat) * RADIANS;
  const dLng = (bLng - aLng) * RADIANS;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RADIANS) * Math.cos(bLat * RADIANS) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distance from the origin to segment ab, in the plane. */
function distanceToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** Signed distance from the position to the fence's edge: negative inside, positive outside. */
export function signedDistanceM(shape: GeofenceShape, lat: number, lng: number): number {
  if (shape.type === 'circle') return distanceM(shape.lat, shape.lng, lat, lng) - shape.radiusM;
  const scaleY = EARTH_RADIUS_M * RADIANS;
  const scaleX = scaleY * Math.cos(lat * RADIANS);
  // Corners on the tangent plane, the position at its origin.
  const corners = shape.points.map(([pLat, pLng]) => [(pLng - lng) * scaleX, (pLat - lat) * scaleY] as const);
  let inside = false;
  let nearest = Number.POSITIVE_INFINITY;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
    const [xi, yi] = corners[i];
    const [xj, yj] = corners[j];
    // Even-odd rule: a ray from the origin along +x crosses the edge.
    if (yi > 0 !== yj > 0 && 0 < ((xj - xi) * -yi) / (yj - yi) + xi) inside = !inside;
    nearest = Math.min(nearest, distanceToSegment(xi, yi, xj, yj));
  }
  return inside ? -nearest : nearest;
}

/**
 * The side of the edge a fix decides, or undefined when it is too close to the edge for its accuracy (or too
 * vague). Inside a small circle the margin shrinks to half the radius, so that its centre still decides.
 */
export function sideOf(shape: GeofenceShape, fix: Fix): 'inside' | 'outside' | undefined {
  const accuracy = fix.accuracy ?? ASSUMED_ACCURACY_M;
  if (!(accuracy <= WORST_USABLE_ACCURACY_M)) return undefined;
  const margin = Math.max(EDGE_MARGIN_MIN_M, accuracy);
  const distance = signedDistanceM(shape, fix.lat, fix.lng);
  const innerMargin = shape.type === 'circle' ? Math.min(margin, shape.radiusM / 2) : margin;
  if (distance <= -innerMargin) return 'inside';
  if (distance >= margin) return 'outside';
  return undefined;
}
