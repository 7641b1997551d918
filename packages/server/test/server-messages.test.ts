/**
 * Issue 17 point 4: every sentence the server sends for display has a stable code, and `result` follows the
 * caller's Accept-Language (fr, en, de; English otherwise). getSignUpState tells the sign-in page whether a
 * sign-up link can work.
 */
import { readFileSync } from 'node:fs';
import { SERVER_MESSAGE_CODES } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { languageOf, serverText } from '../src/http/messages.ts';
import { databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe('the message catalogue', () => {
  it('has an English, French and German sentence for every code', () => {
    const values = Object.fromEntries(
      ['details', 'what', 'ids', 'field', 'max', 'method', 'path', 'count', 'added', 'alreadyExisting', 'notAdded'].map(
        (name) => [name, 'x'],
      ),
    );
    for (const code of SERVER_MESSAGE_CODES) {
      for (const language of ['en', 'fr', 'de'] as const) {
        expect(serverText(code, values, language)).toMatch(/\p{L}/u);
        expect(serverText(code, values, language)).not.toMatch(/\{\{/);
      }
    }
  });

  it('has a text of the web app (common:server.<code>) for every code, in fr, en and de', () => {
    for (const language of ['fr', 'en', 'de']) {
      const common = JSON.parse(
        readFileSync(new URL(`../../web/src/i18n/locales/${language}/common.json`, import.meta.url), 'utf8'),
      );
      expect(SERVER_MESSAGE_CODES.filter((code) => !common.server?.[code])).toEqual([]);
    }
  });

  it('picks the preferred supported language of Accept-Language, English otherwise', () => {
    const of = (header?: string) => languageOf({ headers: header ? { 'accept-language': header } : {} } as never);
    expect(of('fr-FR,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(of('es-ES, de;q=0.5, fr;q=0.4')).toBe('de');
    expect(of('en;q=0.2, fr;q=0.9')).toBe('fr');
    expect(of('es')).toBe('en');
    expect(of()).toBe('en');
  });
});

describe.each(databases)('server messages on %s', (dialect) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp(dialect);
  });
  afterEach(async () => {
    await app.close();
  });

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    app.fastify.inject({ method: 'POST', url: path, payload: body, headers }).then((r) => ({
      status: r.statusCode,
      body: r.json(),
    }));

  it('answers a failed sign-in with a code, in the language the caller asks for', async () => {
    await signUpAdmin(app);
    const wrong = { user_email: 'admin@example.org', user_password: 'nope' };
    const english = await post('/user/api/login', wrong);
    expect(english).toEqual({
      status: 401,
      body: { success: false, result: 'Invalid login or password.', code: 'invalid_credentials' },
    });
    const french = await post('/user/api/login', wrong, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(french.body).toEqual({
      success: false,
      result: 'Identifiant ou mot de passe incorrect.',
      code: 'invalid_credentials',
    });
    const german = await post('/user/api/login', wrong, { 'accept-language': 'de' });
    expect(german.body.result).toBe('Benutzername oder Passwort falsch.');
  });

  it('writes a sign-up refusal and a validation error in French, keeping the code and the fields', async () => {
    await signUpAdmin(app);
    const closed = await post(
      '/user/api/signUpUser',
      { firstName: 'Eve', lastName: 'Out', email: 'eve@example.org', password: 'secret2' },
      { 'accept-language': 'fr' },
    );
    expect(closed.status).toBe(403);
    expect(closed.body).toEqual({
      success: false,
      result: 'Les inscriptions sont fermées : un administrateur doit créer votre compte.',
      code: 'signup_closed',
    });
    const invalid = await post('/user/api/login', { user_email: '', user_password: 'x' }, { 'accept-language': 'fr' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ success: false, code: 'invalid_input' });
    expect(invalid.body.result).toMatch(/^Saisie invalide : user_email: /);
  });

  it('gives a success sentence its code and rebuilds it with its values in the asked language', async () => {
    const admin = await signUpAdmin(app);
    const headers = { 'x-access-token': admin.token, 'accept-language': 'fr' };
    const created = await post('/user/api/createChannel', { channelName: 'Nord' }, headers);
    expect(created.body).toMatchObject({ success: true, code: 'channel_created', result: 'Canal créé avec succès' });
    const imported = await post('/user/api/createMultipleChannels', { channelData: [{ name: 'Sud' }] }, headers);
    expect(imported.body).toMatchObject({
      success: true,
      code: 'channels_imported',
      params: { added: 1, alreadyExisting: 0, notAdded: 0 },
      result: '1 ajoutés, 0 déjà existants, 0 non ajoutés',
    });
    const english = await post('/user/api/createChannel', { channelName: 'Est' }, { 'x-access-token': admin.token });
    expect(english.body).toMatchObject({ code: 'channel_created', result: 'Channel created successfully' });
  });

  it('says whether sign-up is open: on an empty database, then closed once an account exists', async () => {
    expect((await post('/user/api/getSignUpState', {})).body).toEqual({ success: true, open: true });
    await signUpAdmin(app);
    expect((await post('/user/api/getSignUpState', {})).body).toEqual({ success: true, open: false });
    await app.close();
    app = await startApp(dialect, { allowSignup: true });
    await signUpAdmin(app);
    expect((await post('/user/api/getSignUpState', {})).body).toEqual({ success: true, open: true });
  });
});
