/**
 * What a page may ask of the shell, without importing the app layer (features import only api/, components/
 * and i18n/):
 * - <SidebarSection> renders its children in the sidebar, below the navigation, while the page is shown
 *   (the channel room puts its 'Users in {channel}' section there).
 * - useShellActions().openAddUser / openAddChannel: what the sidebar's add icons do. By default they open the
 *   list page with `?add=1`; the users and channels pages open their create dialog when they see it.
 */
import { createContext, type ReactNode, useContext } from 'react';
import { createPortal } from 'react-dom';
import { useSearchParams } from 'react-router';

export interface ShellActions {
  openAddUser: () => void;
  openAddChannel: () => void;
}

export interface ShellContextValue extends ShellActions {
  /** The sidebar's slot element; null outside the shell or before it mounts. */
  sidebarSlot: HTMLElement | null;
  /** True below 1480px, where the sidebar is a drawer. */
  narrow: boolean;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

/** The query parameter the add icons set on /usersList and /channelsList. */
export const ADD_PARAM = 'add';

/** Whether this page was opened by a sidebar add icon (`?add=1`), and how to close that request. */
export function useAddRequest(): { adding: boolean; closeAdd: () => void } {
  const [params, setParams] = useSearchParams();
  const closeAdd = () =>
    setParams(
      (current) => {
        current.delete(ADD_PARAM);
        return current;
      },
      { replace: true },
    );
  return { adding: params.has(ADD_PARAM), closeAdd };
}

export function useShellActions(): ShellActions {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShellActions is only available inside the shell');
  return shell;
}

export function useShellLayout(): { narrow: boolean; inShell: boolean } {
  const shell = useContext(ShellContext);
  return { narrow: shell?.narrow ?? false, inShell: shell !== null };
}

/** Renders children in the shell's sidebar slot while mounted; renders nothing outside the shell. */
export function SidebarSection({ children }: { children: ReactNode }) {
  const slot = useContext(ShellContext)?.sidebarSlot;
  return slot ? createPortal(children, slot) : null;
}
