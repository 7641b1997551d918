/** Route guards of spec section 2. They read the session reactively: clearing it sends the user to /signin. */
import { type ReactNode, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getSession, type Session, useSession } from '../api/session.ts';

/** /dashboard, /usersList, /channelsList, /activities, /groupCallView: no session token -> /signin. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  return children;
}

/** Where a signed-in user starts: members in their own app (/talk), administrators in the console. */
export function homeOf(session: Session | null): string {
  if (!session) return '/signin';
  return session.user?.role === 'member' ? '/talk' : '/dashboard';
}

/**
 * The administrator console (/dashboard, /usersList, /channelsList, /activities): a member goes to /talk, its
 * own app, and never meets the console's 403s. The group call view stays open to members: it is a channel's
 * room, which they may enter.
 */
export function RequireAdminConsole({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (session?.user?.role === 'member' && !/^\/groupCallView\//i.test(pathname)) return <Navigate to="/talk" replace />;
  return children;
}

/**
 * /signin and /signup: arriving with a session token -> /dashboard (a member: /talk). Decided on arrival only, so that signing
 * in on this page goes where the sign-in says (/channelsList), not here.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const [arrivedWith] = useState(() => getSession());
  if (arrivedWith) return <Navigate to={homeOf(arrivedWith)} replace />;
  return children;
}

/** /: with a session token /dashboard (a member: /talk), otherwise /signin. */
export function HomeRedirect() {
  return <Navigate to={homeOf(useSession())} replace />;
}
