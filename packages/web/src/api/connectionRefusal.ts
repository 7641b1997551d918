/**
 * Why the server refused the page's real-time connection, while it does (issue 36): `connect_error`'s
 * `{ code, message }` (too_many_connections, server_busy, database_unavailable…), kept here for the connection
 * banner until a socket connects again. No dependency: the banner reads it without loading the socket client.
 */
export interface ConnectionRefusal {
  code: string;
  message: string;
}

let current: ConnectionRefusal | null = null;
const listeners = new Set<() => void>();

export function connectionRefusal(): ConnectionRefusal | null {
  return current;
}

export function setConnectionRefusal(next: ConnectionRefusal | null): void {
  if (current?.code === next?.code && current?.message === next?.message) return;
  current = next;
  for (const listener of listeners) listener();
}

export function subscribeConnectionRefusal(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The refusal a connect_error carries, if the server said why. */
export function refusalOf(error: unknown): ConnectionRefusal | null {
  const data = (error as { data?: { code?: unknown; message?: unknown } } | null)?.data;
  return typeof data?.code === 'string' && typeof data.message === 'string'
    ? { code: data.code, message: data.message }
    : null;
}
