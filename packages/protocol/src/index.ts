export * from './api.ts';
export * from './client-config.ts';
export * from './entities.ts';
export * from './events.ts';
export * from './rules.ts';
