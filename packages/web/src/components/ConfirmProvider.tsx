/**
 * `const confirm = useConfirm(); if (await confirm({ message, destructive: true })) ...`
 * The dialog's code loads the first time it is asked for, keeping it out of the sign-in bundle.
 */
import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useRef, useState } from 'react';
import type { ConfirmOptions } from './ConfirmDialog.tsx';

const ConfirmDialog = lazy(() => import('./ConfirmDialog.tsx').then((module) => ({ default: module.ConfirmDialog })));

type Confirm = (options?: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Confirm | null>(null);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmOptions | null>(null);
  const [used, setUsed] = useState(false);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((options = {}) => {
    resolver.current?.(false);
    setUsed(true);
    setRequest(options);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const settle = (answer: boolean) => {
    resolver.current?.(answer);
    resolver.current = null;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {used ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={request !== null}
            {...request}
            onConfirm={() => settle(true)}
            onCancel={() => settle(false)}
          />
        </Suspense>
      ) : null}
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs <ConfirmProvider> (src/app/providers.tsx)');
  return confirm;
}
