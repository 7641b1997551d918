/**
 * The dispatch queue's timings (issue 49): a waiting request is recalled after DISPATCH_REMIND_SECONDS (60), expires
 * after DISPATCH_EXPIRE_MINUTES (30, 1 at least), a transfer comes back unanswered after DISPATCH_TRANSFER_SECONDS
 * (30), a request whose member is offline that long is abandoned after DISPATCH_ABANDON_SECONDS (120).
 */
import {
  DISPATCH_ABANDON_MS,
  DISPATCH_EXPIRE_MINUTES_DEFAULT,
  DISPATCH_REMIND_SECONDS_DEFAULT,
  DISPATCH_TRANSFER_MS,
} from '@talkgroup/protocol';
import { ConfigError, parsePositiveSeconds } from './values.ts';

export interface DispatchTimings {
  remindMs: number;
  expireMs: number;
  transferMs: number;
  abandonMs: number;
}

export function parseDispatchTimings(env: NodeJS.ProcessEnv): DispatchTimings {
  const expireMinutes = Number(env.DISPATCH_EXPIRE_MINUTES || DISPATCH_EXPIRE_MINUTES_DEFAULT);
  if (!Number.isFinite(expireMinutes) || expireMinutes < 1)
    throw new ConfigError(
      `DISPATCH_EXPIRE_MINUTES must be a number of minutes, 1 at least, not "${env.DISPATCH_EXPIRE_MINUTES}"`,
    );
  const seconds = (name: string, fallback: number) => parsePositiveSeconds(name, env[name], fallback) * 1000;
  return {
    remindMs: seconds('DISPATCH_REMIND_SECONDS', DISPATCH_REMIND_SECONDS_DEFAULT),
    expireMs: expireMinutes * 60_000,
    transferMs: seconds('DISPATCH_TRANSFER_SECONDS', DISPATCH_TRANSFER_MS / 1000),
    abandonMs: seconds('DISPATCH_ABANDON_SECONDS', DISPATCH_ABANDON_MS / 1000),
  };
}
