import { z } from 'zod';
import { call, Id, OkSchema, ok, requiredName } from '../call.ts';
import { IsoTime } from './shared.ts';

// Geofences (issue 28; see docs/api.md "Trails, geofences and exports")

export const GEOFENCE_NAME_MAX = 100;
/** A circle's largest radius: a zone, not a region (50 km). */
export const GEOFENCE_MAX_RADIUS_M = 50_000;
/** A polygon's most corners (a hand-drawn zone needs far fewer). */
export const GEOFENCE_MAX_POINTS = 200;
/** A polygon spans at most this many degrees each way (about 110 km of latitude): a zone, not a region. */
export const GEOFENCE_MAX_SPAN_DEGREES = 1;
export const GEOFENCE_ALERT_ON = ['enter', 'exit', 'both'] as const;
export type GeofenceAlertOn = (typeof GEOFENCE_ALERT_ON)[number];

const Lat = z.number().min(-90, 'must be a latitude, -90 to 90').max(90, 'must be a latitude, -90 to 90');
const Lng = z.number().min(-180, 'must be a longitude, -180 to 180').max(180, 'must be a longitude, -180 to 180');

/** A fence's shape as the server returns it. */
export const GeofenceShapeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('circle'), lat: z.number(), lng: z.number(), radiusM: z.number() }),
  /** Corners as [lat, lng], the ring not closed (the last corner joins the first). */
  z.object({ type: z.literal('polygon'), points: z.array(z.tuple([z.number(), z.number()])) }),
]);
export type GeofenceShape = z.output<typeof GeofenceShapeSchema>;

type Point = readonly [number, number];

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Whether segments ab and cd cross or touch (shared end points of neighbouring edges are left to the caller). */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const onSegment = (p: Point, q: Point, r: Point) =>
    Math.min(p[0], q[0]) <= r[0] &&
    r[0] <= Math.max(p[0], q[0]) &&
    Math.min(p[1], q[1]) <= r[1] &&
    r[1] <= Math.max(p[1], q[1]);
  return (
    (d1 === 0 && onSegment(c, d, a)) ||
    (d2 === 0 && onSegment(c, d, b)) ||
    (d3 === 0 && onSegment(a, b, c)) ||
    (d4 === 0 && onSegment(a, b, d))
  );
}

/** Why a polygon's ring is not a zone (fewer than 3 distinct corners, edges that cross, too wide), or undefined. */
export function polygonProblem(points: ReadonlyArray<Point>): string | undefined {
  const distinct = new Set(points.map(([lat, lng]) => `${lat},${lng}`));
  if (distinct.size < 3) return 'a polygon needs at least 3 distinct corners';
  const lats = points.map((p) => p[0]);
  const lngs = points.map((p) => p[1]);
  if (
    Math.max(...lats) - Math.min(...lats) > GEOFENCE_MAX_SPAN_DEGREES ||
    Math.max(...lngs) - Math.min(...lngs) > GEOFENCE_MAX_SPAN_DEGREES
  )
    return `a polygon spans at most ${GEOFENCE_MAX_SPAN_DEGREES} degree of latitude and of longitude`;
  const n = points.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      // Neighbouring edges share a corner; only edges apart from each other may not meet.
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      if (segmentsMeet(points[i], points[(i + 1) % n], points[j], points[(j + 1) % n]))
        return 'the edges of a polygon must not cross';
    }
  }
  return undefined;
}

/** A shape as a client sends it: checked, a closing corner equal to the first one dropped. */
export const GeofenceShapeInput = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('circle'),
    lat: Lat,
    lng: Lng,
    radiusM: z
      .number()
      .positive('must be above 0')
      .max(GEOFENCE_MAX_RADIUS_M, `must be at most ${GEOFENCE_MAX_RADIUS_M} metres`),
  }),
  z.object({
    type: z.literal('polygon'),
    points: z
      .array(z.tuple([Lat, Lng]))
      .min(3, 'a polygon needs at least 3 corners')
      .max(GEOFENCE_MAX_POINTS + 1, `a polygon has at most ${GEOFENCE_MAX_POINTS} corners`)
      .transform((points) => {
        const [first] = points;
        const last = points[points.length - 1];
        return first[0] === last[0] && first[1] === last[1] ? points.slice(0, -1) : points;
      })
      .superRefine((points, ctx) => {
        if (points.length > GEOFENCE_MAX_POINTS)
          ctx.addIssue({ code: 'custom', message: `a polygon has at most ${GEOFENCE_MAX_POINTS} corners` });
        const problem = polygonProblem(points);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  }),
]);

/** A moment that has not passed yet (a fence's end). */
const FutureTime = IsoTime.refine((date) => date.getTime() > Date.now(), 'must be in the future');

export const GeofenceSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The channel whose members it watches; null: it watches everyone (administrators' fences). */
  channelId: z.number().nullable(),
  channelName: z.string().nullable(),
  shape: GeofenceShapeSchema,
  alertOn: z.enum(GEOFENCE_ALERT_ON),
  /** When it stops watching (ISO time); null: until deleted. */
  activeUntil: z.string().nullable(),
  /** Whether it watches now (activeUntil not passed). */
  active: z.boolean(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.number().nullable(), name: z.string() }),
});
export type Geofence = z.output<typeof GeofenceSchema>;

/** Pushed as `geofenceAlert` to the administrators and the dispatchers of the fence's channel. */
export const GeofenceAlertSchema = z.object({
  geofenceId: z.number(),
  name: z.string(),
  /** The fence's channel (null: a fence that watches everyone). */
  channelId: z.number().nullable(),
  userId: z.number(),
  userName: z.string(),
  kind: z.enum(['enter', 'exit']),
  lat: z.number(),
  lng: z.number(),
  /** When the position that crossed was reported (ISO time). */
  at: z.string(),
});
export type GeofenceAlert = z.output<typeof GeofenceAlertSchema>;

const GeofenceName = requiredName(GEOFENCE_NAME_MAX);

export const CreateGeofence = call(ok({ res: GeofenceSchema }))(
  '/user/api/createGeofence',
  'channel.geofences',
  z.object({
    name: GeofenceName,
    /** Absent or null: a fence that watches everyone (administrators only). */
    channelId: Id.nullable().optional(),
    shape: GeofenceShapeInput,
    alertOn: z.enum(GEOFENCE_ALERT_ON).default('both'),
    activeUntil: FutureTime.nullable().optional(),
  }),
);
/** Only the fields sent change; `activeUntil: null` makes the fence watch until deleted. */
export const UpdateGeofence = call(ok({ res: GeofenceSchema }))(
  '/user/api/updateGeofence',
  'channel.geofences',
  z.object({
    id: Id,
    name: GeofenceName.optional(),
    channelId: Id.nullable().optional(),
    shape: GeofenceShapeInput.optional(),
    alertOn: z.enum(GEOFENCE_ALERT_ON).optional(),
    activeUntil: FutureTime.nullable().optional(),
  }),
);
export const DeleteGeofence = call(OkSchema)('/user/api/deleteGeofence', 'channel.geofences', z.object({ id: Id }));
/**
 * With `channelId`: the fences that watch that channel's members (its own, and for one who may see them, those
 * that watch everyone). Without: every fence the caller may see (a dispatcher's: its channels').
 */
export const GetGeofences = call(ok({ res: z.array(GeofenceSchema) }))(
  '/user/api/getGeofences',
  'channel.geofences',
  z.object({ channelId: Id.optional() }),
);
