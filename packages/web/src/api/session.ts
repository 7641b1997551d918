/**
 * The signed-in session as the spec's browser storage keeps it (spec section 3): the token in sessionStorage
 * under TOKEN_KEY (and in localStorage too when 'Remember me' is ticked, so it survives a browser restart),
 * the user's fields in localStorage. React reads it through useSession(), so clearing it re-renders the guards.
 */
import { type Capability, knownRole, may, mayAnywhere, type Role, type SignedInUser } from '@talkgroup/protocol';
import { useMemo, useSyncExternalStore } from 'react';
import { ROOM_SESSION_KEYS } from './roomStorage.ts';

export const TOKEN_KEY = 'TOKEN_KEY';
/** The language choice survives sign-out and invalid tokens: it is the reader's, not the session's. */
const LANGUAGE_KEY = 'i18nextLng';
const USER_KEYS = ['id', 'email', 'firstName', 'lastName', 'display_name', 'role'] as const;

export interface StoredUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  display_name: string;
  role: Role;
}

export interface Session {
  token: string;
  user: StoredUser | null;
  /**
   * Issue 38: the organisation requires a second factor of this user's role and it has none: the session
   * reaches only /account (the setup) until it is set.
   */
  secondFactorSetup?: boolean;
}

/** Where the "setup pending" mark is kept (with the user's fields; it goes with the session). */
const SETUP_KEY = 'secondFactorSetup';

const listeners = new Set<() => void>();
let snapshot: Session | null = read();

function safe<T>(work: () => T, fallback: T): T {
  try {
    return work();
  } catch {
    return fallback; // storage disabled (private mode, sandboxed frame): behave as signed out
  }
}

function read(): Session | null {
  return safe(() => {
    const token = sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
    if (!token) return null;
    const id = Number(localStorage.getItem('id'));
    const user: StoredUser | null =
      Number.isInteger(id) && id > 0
        ? {
            id,
            email: localStorage.getItem('email') ?? '',
            firstName: localStorage.getItem('firstName') ?? '',
            lastName: localStorage.getItem('lastName') ?? '',
            display_name: localStorage.getItem('display_name') ?? '',
            role: storedRole(localStorage.getItem('role')),
          }
        : null;
    return localStorage.getItem(SETUP_KEY) === '1' ? { token, user, secondFactorSetup: true } : { token, user };
  }, null);
}

/**
 * The stored role. A session kept before roles were stored is an administrator's (the console's only role then);
 * a role this version does not know may do nothing here: it is shown the members' app.
 */
function storedRole(value: string | null): Role {
  return value === null ? 'admin' : (knownRole(value) ?? 'member');
}

function changed(): void {
  const next = read();
  if (
    next?.token === snapshot?.token &&
    JSON.stringify(next?.user) === JSON.stringify(snapshot?.user) &&
    next?.secondFactorSetup === snapshot?.secondFactorSetup
  )
    return;
  snapshot = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab signing out (localStorage) is seen here too.
if (typeof window !== 'undefined') window.addEventListener('storage', changed);

export function getSession(): Session | null {
  return snapshot;
}

export function getToken(): string | null {
  return snapshot?.token ?? null;
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The console is for those who supervise channels (their activities): administrators and dispatchers. */
export function usesConsole(role: Role): boolean {
  return mayAnywhere({ role }, 'channel.activities');
}

/**
 * Where a signed-in user starts: members in their own app (/talk), administrators on the dashboard, a
 * dispatcher (no organisation statistics) on its dispatch console (issue 70: its channels' list said "Create the
 * channels…", which it cannot).
 */
export function homeOf(session: Session | null): string {
  if (!session) return '/signin';
  const role = session.user?.role ?? 'admin';
  if (!usesConsole(role)) return '/talk';
  return mayAnywhere({ role }, 'statistics.read') ? '/dashboard' : deskOr(role, '/channelsList');
}

/** Where the sign-in form leads: the channels' list, or the dispatch console of a dispatcher (issue 70). */
export function afterSignIn(storedRole: string): string {
  const role = knownRole(storedRole) ?? 'member';
  return mayAnywhere({ role }, 'statistics.read') ? '/channelsList' : deskOr(role, '/channelsList');
}

function deskOr(role: Role, otherwise: string): string {
  return mayAnywhere({ role }, 'channel.monitor') ? '/dispatch' : otherwise;
}

/**
 * What the signed-in user's role may do, from protocol's one table (the server asks the same): `may(c)` held
 * everywhere (an organisation-wide page or action), `somewhere(c)` in at least its own channels.
 */
export function useMay(): { may: (capability: Capability) => boolean; somewhere: (capability: Capability) => boolean } {
  const role = useSession()?.user?.role ?? 'member';
  return useMemo(
    () => ({
      may: (capability: Capability) => may({ role }, null, capability),
      somewhere: (capability: Capability) => mayAnywhere({ role }, capability),
    }),
    [role],
  );
}

function writeUser(user: Omit<StoredUser, 'role'> & { role?: string }): void {
  localStorage.setItem('id', String(user.id));
  localStorage.setItem('email', user.email);
  localStorage.setItem('firstName', user.firstName);
  localStorage.setItem('lastName', user.lastName);
  localStorage.setItem('display_name', user.display_name);
  localStorage.setItem('role', user.role ?? 'admin');
}

/** Sign-in success (spec section 4): the user in localStorage, the token in sessionStorage (+ localStorage if remembered). */
export function saveSignIn(user: SignedInUser, remember: boolean, secondFactorSetup = false): void {
  safe(() => {
    writeUser(user);
    if (secondFactorSetup) localStorage.setItem(SETUP_KEY, '1');
    else localStorage.removeItem(SETUP_KEY);
    sessionStorage.setItem(TOKEN_KEY, user.authToken);
    if (remember) localStorage.setItem(TOKEN_KEY, user.authToken);
    else localStorage.removeItem(TOKEN_KEY);
  }, undefined);
  changed();
}

/** Issue 38: the session must set up a second factor first (true), or no longer (false, once it is set). */
export function markSecondFactorSetup(pending: boolean): void {
  safe(() => {
    if (pending) localStorage.setItem(SETUP_KEY, '1');
    else localStorage.removeItem(SETUP_KEY);
  }, undefined);
  changed();
}

/** Refreshes the stored names after the server confirmed the token (they may have been edited elsewhere). */
export function updateStoredUser(user: Omit<SignedInUser, 'authToken'>): void {
  safe(() => {
    writeUser(user);
    // A remembered token read from localStorage after a browser restart joins this tab's session.
    const token = localStorage.getItem(TOKEN_KEY);
    if (token && !sessionStorage.getItem(TOKEN_KEY)) sessionStorage.setItem(TOKEN_KEY, token);
  }, undefined);
  changed();
}

/** Logout (spec section 4): clear the stored id, email, names, token, room and data. */
export function clearSession(): void {
  safe(() => {
    for (const key of [...USER_KEYS, ...ROOM_SESSION_KEYS, SETUP_KEY]) localStorage.removeItem(key);
    localStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
  }, undefined);
  changed();
}

/** Invalid or missing token (spec section 4): clear both storages, keeping only the language choice. */
export function clearStorages(): void {
  safe(() => {
    const language = localStorage.getItem(LANGUAGE_KEY);
    localStorage.clear();
    sessionStorage.clear();
    if (language) localStorage.setItem(LANGUAGE_KEY, language);
  }, undefined);
  changed();
}
