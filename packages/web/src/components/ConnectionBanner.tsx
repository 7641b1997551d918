/**
 * Says, while it lasts, that the page is offline or reconnecting to the server (issue 12), or why the server
 * refuses its connection (issue 36: too many connections from this address, the server full, the database
 * away): everything comes back by itself, and the reader knows to wait rather than reload. A polite live region, over the page's
 * top edge, covering no control.
 */
import Alert from '@mui/material/Alert';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { connectionRefusal, subscribeConnectionRefusal } from '../api/connectionRefusal.ts';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** The browser's own word on the network (false: certainly offline; true: maybe online). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

/** Why the server refuses the page's connection, in the reader's language, while it does. */
export function useConnectionRefusal(): string | null {
  const { t } = useTranslation('common');
  const refusal = useSyncExternalStore(subscribeConnectionRefusal, connectionRefusal, () => null);
  return refusal ? t(`server.${refusal.code}` as never, { defaultValue: refusal.message }) : null;
}

export function ConnectionBanner({ reconnecting }: { reconnecting: boolean }) {
  const { t } = useTranslation('common');
  const online = useOnline();
  const refused = useConnectionRefusal();
  const text = !online
    ? t('connection.offline')
    : refused
      ? refused
      : reconnecting
        ? t('connection.reconnecting')
        : null;
  return (
    <div role="status" aria-live="polite" style={{ position: 'fixed', top: 8, left: 0, right: 0, zIndex: 1500 }}>
      {text ? (
        <Alert
          severity="warning"
          variant="filled"
          sx={{ mx: 'auto', width: 'fit-content', maxWidth: 'calc(100% - 16px)', boxShadow: 3, py: 0 }}
        >
          {text}
        </Alert>
      ) : null}
    </div>
  );
}
