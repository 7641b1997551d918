/**
 * The typed client and the stored session, in Node with in-memory storages and a stubbed fetch: what the
 * server receives, what the caller gets back, and what a 401 does to the session.
 */
import { IsValidToken, Login, type SignedInUser } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  keys() {
    return [...this.items.keys()].sort();
  }
}

const user: SignedInUser = {
  id: 7,
  identifier: 'ada@example.org',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  display_name: 'Ada Lovelace',
  pseudo: 'ada',
  role: 'admin',
  mapRight: true,
  authToken: 'token-123',
};

let local: MemoryStorage;
let session: MemoryStorage;
let fetchMock: ReturnType<typeof vi.fn>;

async function load() {
  vi.resetModules();
  const sessionModule = await import('./session.ts');
  const client = await import('./client.ts');
  return { ...sessionModule, ...client };
}

function answer(status: number, body: unknown) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status }));
}

beforeEach(() => {
  local = new MemoryStorage();
  session = new MemoryStorage();
  fetchMock = vi.fn();
  vi.stubGlobal('localStorage', local);
  vi.stubGlobal('sessionStorage', session);
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api()', () => {
  it('posts JSON to the call path with the session token and returns the answer', async () => {
    const { api, saveSignIn } = await load();
    saveSignIn(user, false);
    answer(200, { success: true, user });
    const response = await api(IsValidToken, { token: 'token-123' });
    expect(response.success).toBe(true);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/user/api/isValidToken');
    expect(init.method).toBe('POST');
    expect(init.headers['x-access-token']).toBe('token-123');
    expect(JSON.parse(init.body)).toEqual({ token: 'token-123' });
  });

  it('sends no token for an anonymous call (sign-in)', async () => {
    const { api, saveSignIn } = await load();
    saveSignIn(user, false);
    answer(200, { success: true, user });
    await api(Login, { user_email: 'ada@example.org', user_password: 'pw' }, { anonymous: true });
    expect(fetchMock.mock.calls[0][1].headers['x-access-token']).toBeUndefined();
  });

  it("throws the server's sentence on a refusal, and keeps the session when no token was sent", async () => {
    const { api, ApiError, errorMessage } = await load();
    answer(401, { success: false, result: 'Invalid login or password.' });
    const failure = await api(Login, { user_email: 'a@b.co', user_password: 'x' }, { anonymous: true }).catch(
      (error) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.status).toBe(401);
    expect(errorMessage(failure, 'Error while login')).toBe('Invalid login or password.');
  });

  it("shows a coded refusal in the reader's language and asks the server in it", async () => {
    const { api, errorMessage } = await load();
    const i18next = (await import('i18next')).default;
    const fr = (await import('../i18n/locales/fr/common.json')).default;
    await i18next.init({ lng: 'fr', resources: { fr: { common: fr } } });
    answer(401, { success: false, result: 'Invalid login or password.', code: 'invalid_credentials' });
    const failure = await api(Login, { user_email: 'a@b.co', user_password: 'x' }, { anonymous: true }).catch(
      (error) => error,
    );
    expect(fetchMock.mock.calls[0][1].headers['accept-language']).toBe('fr');
    expect(failure.code).toBe('invalid_credentials');
    expect(errorMessage(failure, 'Error while login')).toBe('Identifiant ou mot de passe incorrect.');
    answer(400, { success: false, result: 'x', code: 'unknown_users', params: { ids: '4, 5' } });
    const coded = await api(Login, { user_email: 'a@b.co', user_password: 'x' }, { anonymous: true }).catch(
      (error) => error,
    );
    expect(errorMessage(coded, '')).toBe('userList : aucun coéquipier avec l’identifiant 4, 5');
  });

  it('on a 401 for a signed-in call, clears both storages but the language, and calls the handler', async () => {
    const { api, saveSignIn, setUnauthorizedHandler, getSession } = await load();
    local.setItem('i18nextLng', 'de');
    local.setItem('channelName', 'Alpha');
    saveSignIn(user, true);
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    answer(401, { success: false, result: 'The token is invalid, expired or revoked.' });
    await expect(api(IsValidToken, {})).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledOnce();
    expect(getSession()).toBeNull();
    expect(local.keys()).toEqual(['i18nextLng']);
    expect(session.keys()).toEqual([]);
  });

  it("an unreachable server gives status 0 and the caller's fallback text", async () => {
    const { api, errorMessage } = await load();
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    const failure = await api(Login, { user_email: 'a@b.co', user_password: 'x' }, { anonymous: true }).catch(
      (error) => error,
    );
    expect(failure.status).toBe(0);
    expect(errorMessage(failure, 'Error while login')).toBe('Error while login');
  });
});

describe('session', () => {
  it('keeps the token in sessionStorage, and in localStorage only when remembered', async () => {
    const { saveSignIn, TOKEN_KEY } = await load();
    saveSignIn(user, false);
    expect(session.getItem(TOKEN_KEY)).toBe('token-123');
    expect(local.getItem(TOKEN_KEY)).toBeNull();
    expect(local.getItem('firstName')).toBe('Ada');
    saveSignIn(user, true);
    expect(local.getItem(TOKEN_KEY)).toBe('token-123');
  });

  it('a remembered token is the session after a browser restart (sessionStorage empty)', async () => {
    const first = await load();
    first.saveSignIn(user, true);
    session.clear();
    const { getSession } = await load();
    expect(getSession()).toMatchObject({ token: 'token-123', user: { id: 7, firstName: 'Ada', role: 'admin' } });
  });

  it('logout clears the user, the token, the room and the data, not the language', async () => {
    const { saveSignIn, clearSession, getSession } = await load();
    local.setItem('i18nextLng', 'en');
    saveSignIn(user, true);
    for (const key of ['roomId', 'data', 'channelId', 'channelName', 'selectedChannel']) local.setItem(key, 'x');
    clearSession();
    expect(getSession()).toBeNull();
    expect(local.keys()).toEqual(['i18nextLng']);
    expect(session.keys()).toEqual([]);
  });
});
