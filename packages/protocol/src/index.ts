export * from './api.ts';
export * from './entities.ts';
export * from './events.ts';
export * from './rules.ts';
