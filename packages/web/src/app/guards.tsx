/** Route guards of spec section 2. They read the session reactively: clearing it sends the user to /signin. */
import { type ReactNode, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getSession, useSession } from '../api/session.ts';

/** /dashboard, /usersList, /channelsList, /activities, /groupCallView: no session token -> /signin. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  return children;
}

/**
 * /signin and /signup: arriving with a session token -> /dashboard. Decided on arrival only, so that signing
 * in on this page goes where the sign-in says (/channelsList), not here.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const [signedInOnArrival] = useState(() => getSession() !== null);
  if (signedInOnArrival) return <Navigate to="/dashboard" replace />;
  return children;
}

/** /: with a session token /dashboard, otherwise /signin. */
export function HomeRedirect() {
  return <Navigate to={useSession() ? '/dashboard' : '/signin'} replace />;
}
