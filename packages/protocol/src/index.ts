export * from './api/index.ts';
export * from './audit.ts';
export {
  ACCESS_LEVELS,
  type Access,
  type AccessLevel,
  type BodyOf,
  type Call,
  describeAccess,
  type ErrorResponse,
  ErrorResponseSchema,
  type FieldIssue,
  FieldIssueSchema,
  Id,
  isCall,
  type Ok,
  OkSchema,
  type ResponseOf,
} from './call.ts';
export * from './client-config.ts';
export * from './csv.ts';
export * from './emergency.ts';
export * from './entities.ts';
export * from './events.ts';
export * from './roles.ts';
export * from './rules.ts';
export * from './server-messages.ts';
export * from './talk-priority.ts';
