/**
 * Short feedback after an action ('Channel created successfully', 'Oops...' + 'Something went wrong!'):
 * `const notify = useNotify(); notify({ severity: 'success', message })`. One message at a time, newest wins.
 * The snackbar's code loads with the first message.
 */
import type { AlertColor } from '@mui/material/Alert';
import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useState } from 'react';

export interface Notice {
  severity?: AlertColor;
  title?: ReactNode;
  message: ReactNode;
  /** Milliseconds; errors stay 8 s, others 4 s (8 s too with an action). */
  duration?: number;
  /** A button in the notice that leads to what it is about (issue 70: the chat that holds a capture). */
  action?: { label: string; onClick: () => void };
}

const NoticeSnackbar = lazy(() => import('./NoticeSnackbar.tsx'));

type Notify = (notice: Notice) => void;
const NotifyContext = createContext<Notify | null>(null);

export function NotifyProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<(Notice & { key: number }) | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback<Notify>((notice) => {
    setCurrent((previous) => ({ ...notice, key: (previous?.key ?? 0) + 1 }));
    setOpen(true);
  }, []);

  return (
    <NotifyContext.Provider value={notify}>
      {children}
      {current ? (
        <Suspense fallback={null}>
          <NoticeSnackbar key={current.key} notice={current} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error('useNotify needs <NotifyProvider> (src/app/providers.tsx)');
  return notify;
}
