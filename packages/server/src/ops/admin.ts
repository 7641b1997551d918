/**
 * `npm run admin -- <command>`: recovers a lost administrator and promotes a member, on the database of the
 * configuration (DATA_DIR or DATABASE_URL), with or without the server running.
 *   create <login> [<first name> <last name>]   a new administrator
 *   promote <login>                             a member becomes an administrator
 *   reset-password <login>                      a new password; every session of that user ends
 *   reset-second-factor <login>                 its authenticator app, recovery codes and passkeys go; its
 *                                               sessions end (a lost phone, the console out of reach)
 * The password is read from TALKGROUP_PASSWORD, or generated and printed once. Each is in the audit log. A running
 * server's open sockets of that user follow (realtime/remote.ts).
 */
import { randomBytes } from 'node:crypto';
import { type AuditAction, isEmail } from '@talkgroup/protocol';
import { passwordPolicy } from '../auth/password-policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { openDatabase } from '../db/open.ts';
import type { Db } from '../db/schema.ts';
import { searchTextOf } from '../db/search-text.ts';
import { HttpError } from '../http/errors.ts';
import { tellInstances } from '../realtime/remote.ts';

const USAGE = `Usage: npm run admin -- create <login> [<first name> <last name>]
       npm run admin -- promote <login>
       npm run admin -- reset-password <login>
       npm run admin -- reset-second-factor <login>
The password comes from TALKGROUP_PASSWORD, or is generated and printed.`;

class UsageError extends Error {}

function newPassword(minLength: number): { password: string; generated: boolean } {
  const given = process.env.TALKGROUP_PASSWORD;
  if (given) {
    passwordPolicy(minLength).check(given);
    return { password: given, generated: false };
  }
  return { password: randomBytes(18).toString('base64url'), generated: true };
}

async function audit(db: Db, action: AuditAction, target: { id: number; name: string }, changes: object | null) {
  await db
    .insertInto('audit_log')
    .values({
      created_at: new Date().toISOString(),
      actor_id: null,
      actor_name: 'npm run admin',
      action,
      target_type: 'user',
      target_id: target.id,
      target_name: target.name,
      changes: changes ? JSON.stringify(changes) : null,
      address: null,
      request_id: null,
    })
    .execute();
}

/**
 * The running server's open sockets of that user follow the change (its role, its ended sessions): at once
 * with Redis, within the instances' periodic check otherwise (realtime/remote.ts).
 */
async function followed(config: Config, userId: number): Promise<string> {
  try {
    return (await tellInstances(config, [userId]))
      ? '\nThe running instances were told: its open connections follow now.'
      : `\nA running server's open connections follow within ${Math.round(config.rightsRecheckMs / 1000)} s.`;
  } catch (error) {
    return `\nThe running instances could not be told through Redis (${(error as Error).message}): their open connections follow within ${Math.round(config.rightsRecheckMs / 1000)} s.`;
  }
}

/** Runs one command; returns what to print. */
export async function runAdminCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const [command, login, firstName, lastName] = args;
  if (!command || !login) throw new UsageError(USAGE);
  const config = loadConfig(env);
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const db = database.db;
  const identifier = login.trim().toLowerCase();
  try {
    const user = await db.selectFrom('users').selectAll().where('identifier', '=', identifier).executeTakeFirst();
    if (command === 'create') {
      if (user) throw new UsageError(`${identifier} exists already: use promote or reset-password.`);
      // Issue 70: the sign-in form asks for an e-mail; an administrator with another login could never sign in.
      if (!isEmail(identifier))
        throw new UsageError(`The login must be an e-mail address, as the sign-in form asks for one, not "${login}".`);
      const { password, generated } = newPassword(config.passwordMinLength);
      const first = firstName ?? 'Admin';
      const last = lastName ?? 'Talkgroup';
      const created = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('users')
          .values({
            first_name: first,
            last_name: last,
            identifier,
            pseudo: '',
            display_name: `${first} ${last}`,
            search_text: searchTextOf({
              first_name: first,
              last_name: last,
              identifier,
              pseudo: '',
              display_name: `${first} ${last}`,
            }),
            phone_number: '',
            password_hash: await hashPassword(password),
            map_right: 1,
            role: 'admin',
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(
          trx,
          'user.create',
          { id: row.id, name: `${first} ${last}` },
          { role: { before: null, after: 'admin' } },
        );
        return row;
      });
      return `Created the administrator ${identifier} (id ${created.id}).${generated ? `\nPassword: ${password}` : ''}`;
    }
    if (!user) throw new UsageError(`No user with the login ${identifier}.`);
    const name = user.display_name || `${user.first_name} ${user.last_name}`;
    if (command === 'promote') {
      if (user.role === 'admin') return `${identifier} is already an administrator.`;
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
        await audit(trx, 'user.update', { id: user.id, name }, { role: { before: user.role, after: 'admin' } });
      });
      return `${identifier} is now an administrator (its next sign-in opens the console).${await followed(config, user.id)}`;
    }
    if (command === 'reset-password') {
      const { password, generated } = newPassword(config.passwordMinLength);
      const hash = await hashPassword(password);
      const ended = await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
        const result = await trx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
        await audit(trx, 'user.password', { id: user.id, name }, { passwordChanged: { before: null, after: true } });
        return Number(result.numDeletedRows);
      });
      return `New password set for ${identifier}; ${ended} session(s) ended.${await followed(config, user.id)}${generated ? `\nPassword: ${password}` : ''}`;
    }
    if (command === 'reset-second-factor') {
      const ended = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('totp_secrets').where('user_id', '=', user.id).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
        const passkeys = await trx.deleteFrom('passkeys').where('user_id', '=', user.id).executeTakeFirst();
        const result = await trx.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
        await audit(
          trx,
          'user.second_factor_reset',
          { id: user.id, name },
          {
            passkeys: { before: Number(passkeys.numDeletedRows), after: 0 },
          },
        );
        return Number(result.numDeletedRows);
      });
      return `The second factors of ${identifier} are removed (authenticator app, recovery codes, passkeys); ${ended} session(s) ended.${await followed(config, user.id)}`;
    }
    throw new UsageError(USAGE);
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  try {
    console.log(await runAdminCommand(process.argv.slice(2)));
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof HttpError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
