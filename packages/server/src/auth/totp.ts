/**
 * TOTP (RFC 6238, with otplib): the user's secret sealed at rest (auth/sealed.ts), a code accepted at the
 * current time step or one step either side, and each step once (the last accepted step is kept and moved
 * forward in one conditional update, so two requests with the same code cannot both pass). Recovery codes: ten,
 * random, only their SHA-256 stored, each used once (also one conditional update).
 */
import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../db/schema.ts';
import type { Sealer } from './sealed.ts';

export const TOTP_ISSUER = 'Talkgroup';
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be mistaken for each other (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** What a typed code is, ignoring case, spaces and dashes. */
export const normaliseCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const isTotpCode = (code: string) => /^\d{6}$/.test(code);

function newRecoveryCode(): string {
  const letters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/**
 * otplib (with its hashing and base32 plugins) is loaded when a second factor is first set up or checked (Node
 * keeps a module imported once).
 */
const library = () => import('otplib');

export function totpStore(db: Db, sealed: Sealer) {
  /** The step a code of this secret matches (now, or one step either side), after `afterStep`; else undefined. */
  async function matchingStep(secret: string, code: string, afterStep: number | null): Promise<number | undefined> {
    if (!isTotpCode(code)) return undefined;
    const { verify } = await library();
    const result = await verify({
      secret,
      token: code,
      epochTolerance: 30,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /** Moves the last used step forward to `step`, unless another request used it (or a later one) first. */
  async function takeStep(userId: number, step: number): Promise<boolean> {
    const result = await db
      .updateTable('totp_secrets')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  return {
    /** Whether the user has TOTP on (confirmed). */
    async isOn(userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('totp_secrets')
        .select('confirmed')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.confirmed === 1;
    },

    async recoveryCodesLeft(userId: number): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** A new secret, not confirmed yet (replacing an earlier unconfirmed one); undefined when TOTP is on. */
    async start(userId: number, label: string): Promise<{ secret: string; otpauthUrl: string } | undefined> {
      if (await this.isOn(userId)) return undefined;
      const { generateSecret, generateURI } = await library();
      const secret = generateSecret();
      const now = new Date().toISOString();
      await db.deleteFrom('totp_secrets').where('user_id', '=', userId).execute();
      await db
        .insertInto('totp_secrets')
        .values({ user_id: userId, secret: sealed.seal(secret), confirmed: 0, last_step: null, created_at: now })
        .execute();
      return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label, secret }) };
    },

    /**
     * A code of the unconfirmed secret turns TOTP on and makes new recovery codes (returned once, in clear).
     * 'not_started' without a secret waiting, 'wrong' for a wrong code.
     */
    async confirm(userId: number, code: string): Promise<string[] | 'not_started' | 'already_on' | 'wrong'> {
      const row = await db.selectFrom('totp_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return 'not_started';
      if (row.confirmed === 1) return 'already_on';
      const step = await matchingStep(sealed.open(row.secret), normaliseCode(code), row.last_step);
      if (step === undefined || !(await takeStep(userId, step))) return 'wrong';
      const now = new Date().toISOString();
      await db
        .updateTable('totp_secrets')
        .set({ confirmed: 1, confirmed_at: now })
        .where('user_id', '=', userId)
        .execute();
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await db
        .insertInto('recovery_codes')
        .values(codes.map((c) => ({ user_id: userId, code_hash: hashCode(normaliseCode(c)), created_at: now })))
        .execute();
      return codes;
    },

    /**
     * A second factor given at sign-in (or to turn TOTP off): a current code not used before, or an unused
     * recovery code (then used up). Which one it was, or undefined when neither.
     */
    async use(userId: number, code: string): Promise<'totp' | 'recovery' | undefined> {
      const row = await db.selectFrom('totp_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (row?.confirmed !== 1) return undefined;
      const typed = normaliseCode(code);
      if (isTotpCode(typed)) {
        const step = await matchingStep(sealed.open(row.secret), typed, row.last_step);
        return step !== undefined && (await takeStep(userId, step)) ? 'totp' : undefined;
      }
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: new Date().toISOString() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hashCode(typed))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) >= 1 ? 'recovery' : undefined;
    },

    /** TOTP off: its secret and the recovery codes go. */
    async remove(userId: number): Promise<void> {
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await db.deleteFrom('totp_secrets').where('user_id', '=', userId).execute();
    },
  };
}

export type TotpStore = ReturnType<typeof totpStore>;
