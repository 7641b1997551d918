/**
 * A device disabled by an administrator (issue 60 item 5, `device_disabled`): the page wipes everything it keeps
 * — local and session storage, every IndexedDB database (the voice outbox among them), Cache Storage, the browser's
 * push subscription — then reloads on /device-disabled, which says so and offers nothing but signing in again. The
 * reload drops what memory still holds (queries, the outbox's queue). The language goes in the address: it is
 * the reader's, and local storage is empty now.
 */

/** Where the page goes once it has wiped itself. */
export const DEVICE_DISABLED_PATH = '/device-disabled';

/** A step that must not hold the wipe forever (a database another tab keeps open blocks its deletion). */
function bounded<T>(work: Promise<T>, ms = 3000): Promise<T | undefined> {
  return Promise.race([work, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]).catch(
    () => undefined,
  );
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => resolve();
    // Deleted as soon as the other connections close (the outbox closes its own after each use).
    request.onblocked = () => undefined;
  });
}

async function wipeIndexedDb(): Promise<void> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return;
  const databases = (await bounded(indexedDB.databases())) ?? [];
  await Promise.all(databases.flatMap((db) => (db.name ? [bounded(deleteDatabase(db.name))] : [])));
}

async function wipeCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = (await bounded(caches.keys())) ?? [];
  await Promise.all(names.map((name) => bounded(caches.delete(name))));
}

/** The server deleted its subscription already; the browser forgets it too (no push service keeps the endpoint). */
async function forgetPush(): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  const registrations = (await bounded(navigator.serviceWorker.getRegistrations())) ?? [];
  await Promise.all(
    registrations.map(async (registration) => {
      const subscription = await bounded(registration.pushManager.getSubscription());
      if (subscription) await bounded(subscription.unsubscribe());
    }),
  );
}

let wiping: Promise<void> | undefined;

/** Wipes what the page keeps, then shows /device-disabled; once, however many sockets are told. */
export function wipeDisabledDevice(language: string | undefined): Promise<void> {
  wiping ??= (async () => {
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // Storage disabled (private mode): nothing kept there.
    }
    await Promise.all([wipeIndexedDb(), wipeCaches(), forgetPush()]);
    // Cleared again: a write that raced with the wipe (a query's cache, the language) goes too.
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {}
    const query = language ? `?lng=${encodeURIComponent(language)}` : '';
    window.location.replace(`${DEVICE_DISABLED_PATH}${query}`);
  })();
  return wiping;
}
