/**
 * Least data: what a member sees of fellow members (name, pseudo, state in the channel, position with map
 * access), safe names for uploaded files, and photo URLs that are https or the server's own paths.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { displayFileName } from '../src/messages/routes.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('member view on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let max: Account;
  let scout: Account;
  let red: { id: number };
  let secret: { id: number; name: string };

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', pseudo: 'mimi' });
    max = await createMember(app, admin, { firstName: 'Max', pseudo: 'maxou' });
    scout = await createMember(app, admin, { firstName: 'Scout', mapRight: true });
    await app.call(
      '/user/api/updateUserData',
      { id: max.id, firstName: 'Max', lastName: 'Private', phone_number: '+33 6 12 34 56 78' },
      admin.token,
    );
    red = await app.services.channels.create('Red');
    secret = await app.services.channels.create('Secret Ops');
    await app.services.memberships.add(red.id, [mia.id, max.id, scout.id]);
    await app.services.memberships.add(secret.id, [max.id]);
    await app.services.positions.add(max.id, { lat: 48.85, lng: 2.35, accuracy: 5 });
  });
  afterEach(async () => {
    await app.close();
  });

  const membersFor = async (account: Account) =>
    (await app.call('/user/api/getUsersInChannel', { channelId: red.id }, account.token)).body.res as any[];

  it('shows a member only the names, pseudo and state of the others: no login, e-mail, phone or other channel', async () => {
    const seen = (await membersFor(mia)).find((u) => u.id === max.id);
    expect(seen).toMatchObject({ firstName: 'Max', lastName: 'Private', pseudo: 'maxou' });
    expect(seen.identifier).toBe('');
    expect(seen.email).toBe('');
    expect(seen.phone_number).toBe('');
    expect(seen.channels).toEqual([expect.objectContaining({ id: red.id })]);
    const text = JSON.stringify(await membersFor(mia));
    expect(text).not.toContain(max.identifier);
    expect(text).not.toContain('12 34 56 78');
    expect(text).not.toContain('Secret Ops');
    // Its own row stays whole.
    expect((await membersFor(mia)).find((u) => u.id === mia.id).identifier).toBe(mia.identifier);
  });

  it('gives positions only to a member with map access, and everything to an administrator', async () => {
    const forMia = (await membersFor(mia)).find((u) => u.id === max.id);
    const forScout = (await membersFor(scout)).find((u) => u.id === max.id);
    const forAdmin = (await membersFor(admin)).find((u) => u.id === max.id);
    expect(forMia.userPositions).toEqual([]);
    expect(forScout.userPositions).toMatchObject([{ lat: 48.85, lng: 2.35 }]);
    expect(forAdmin).toMatchObject({ identifier: max.identifier, phone_number: '+33 6 12 34 56 78' });
    expect(forAdmin.channels.map((c: { name: string }) => c.name).sort()).toEqual(['Red', 'Secret Ops']);
  });

  it("hides fellow members' logins in a member's own channel list", async () => {
    const mine = (await app.call('/user/api/getMyChannels', {}, mia.token)).body.res;
    const users = mine.find((c: { id: number }) => c.id === red.id).users;
    expect(users.find((u: { id: number }) => u.id === max.id).identifier).toBe('');
    expect(users.find((u: { id: number }) => u.id === mia.id).identifier).toBe(mia.identifier);
    expect(JSON.stringify(mine)).not.toContain('Secret Ops');
  });

  it('accepts photo URLs over https or on this server only', async () => {
    const photo = (photo_url: string) =>
      app.call('/user/api/uploadUserPhoto', { userId: mia.id, photo_url }, mia.token);
    expect((await photo('https://cdn.example.org/me.png')).status).toBe(200);
    expect((await photo('/files/me.png')).status).toBe(200);
    for (const refused of [
      'http://cdn.example.org/me.png',
      '//evil.example.org/x.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ]) {
      const answer = await photo(refused);
      expect(answer.status).toBe(400);
      expect(answer.body.result).toMatch(/https/);
    }
  });
});

describe('uploaded file names', () => {
  it('keeps no path, control, bidirectional or invisible character, and ends with the detected type', () => {
    expect(displayFileName('../../etc/passwd', 'image/png')).toBe('passwd.png');
    expect(displayFileName('C:\\Users\\me\\photo.JPG', 'image/jpeg')).toBe('photo.jpg');
    expect(displayFileName('invoice\u202Egnp.exe', 'image/png')).toBe('invoicegnp.exe.png');
    expect(displayFileName('a\u0000b\u200Bc\nd.gif', 'image/gif')).toBe('abcd.gif');
    expect(displayFileName('report.pdf', 'image/webp')).toBe('report.pdf.webp');
    expect(displayFileName('', 'image/bmp')).toBe('image.bmp');
    expect(displayFileName('.htaccess', 'image/png')).toBe('htaccess.png');
    expect(displayFileName('Vacances été.png', 'image/png')).toBe('Vacances été.png');
  });
});
