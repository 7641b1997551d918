/**
 * Runs a sensitive call; when the server answers 403 `confirm_identity` (issue 47: this session's last proof is
 * older than 5 minutes), opens "Confirm it's you" and, once confirmed, makes the same call again. `run` gives the
 * call's answer, or undefined when the person cancelled; other failures are thrown as they came.
 *
 *   const confirmed = useConfirmedAction();
 *   const answer = await confirmed.run(() => api(DeletePasskey, { id }));
 *   ...
 *   {confirmed.dialog}
 */
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { ConfirmIdentityDialog } from './ConfirmIdentityDialog.tsx';

export function useConfirmedAction(): {
  run: <T>(action: () => Promise<T>) => Promise<T | undefined>;
  dialog: ReactNode;
} {
  const [open, setOpen] = useState(false);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);

  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'confirm_identity')) throw error;
    }
    const confirmed = await new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setOpen(true);
    });
    if (!confirmed) return undefined;
    return action();
  }, []);

  const done = useCallback((confirmed: boolean) => {
    setOpen(false);
    answer.current?.(confirmed);
    answer.current = null;
  }, []);

  return { run, dialog: <ConfirmIdentityDialog open={open} onDone={done} /> };
}
