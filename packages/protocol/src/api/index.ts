/**
 * The HTTP contract of spec section 7: every call, its path, who may make it (docs/api.md), its body schema
 * and its answer's schema. The server validates bodies and serialises answers with them; the web client is
 * typed by them.
 */
export * from './accounts.ts';
export * from './activities.ts';
export * from './aliases.ts';
export * from './ambient.ts';
export * from './areas.ts';
export * from './calls.ts';
export * from './channels.ts';
export * from './chat.ts';
export * from './devices.ts';
export * from './dispatch.ts';
export * from './gateways.ts';
export * from './geofences.ts';
export * from './legacy.ts';
export * from './login.ts';
export * from './positions.ts';
export * from './presence.ts';
export * from './push.ts';
export * from './queue.ts';
export * from './regroups.ts';
export * from './reports.ts';
export * from './safety.ts';
export * from './second-factor.ts';
export * from './sign-in.ts';
export * from './sso.ts';
export * from './statuses.ts';
export * from './users.ts';
export * from './video.ts';
export * from './voice.ts';
