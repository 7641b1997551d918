/**
 * Accounts of a given role for the role tests (authorization.test.ts, roles.test.ts): created by an
 * administrator with `signUpUser { role }`, then signed in.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from '@talkgroup/protocol';
import { type Account, signIn, type TestApp } from './harness.ts';

let count = 0;

export async function createWithRole(
  app: TestApp,
  admin: Account,
  role: Role,
  fields: Partial<{ firstName: string; lastName: string; mapRight: boolean }> = {},
): Promise<Account> {
  count += 1;
  const email = `${role}${count}-${randomBytes(3).toString('hex')}@example.org`;
  const password = 'role-password-1';
  const created = await app.call(
    '/user/api/signUpUser',
    { firstName: 'Rita', lastName: `${role}${count}`, ...fields, email, password, role },
    admin.token,
  );
  if (created.status !== 200) throw new Error(`${role} creation failed: ${JSON.stringify(created.body)}`);
  if (created.body.user.role !== role) throw new Error(`created as ${created.body.user.role}, not ${role}`);
  return signIn(app, email, password);
}
