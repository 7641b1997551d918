/**
 * One IndexedDB object store of this browser's outboxes (voice transmissions, live video recordings): each
 * request opens the database (made at version 1 with the store on first use), runs in one transaction, and
 * closes it, so that nothing stays open between sends.
 */
export type StoreRequest = <T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>) => Promise<T>;

export function idbStore(dbName: string, storeName: string, keyPath: string): StoreRequest {
  const open = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(dbName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  return async (mode, act) => {
    const db = await open();
    try {
      return await new Promise((resolve, reject) => {
        const request = act(db.transaction(storeName, mode).objectStore(storeName));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    } finally {
      db.close();
    }
  };
}
