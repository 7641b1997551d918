/**
 * Route guards of spec section 2. They read the session reactively: clearing it sends the user to /signin.
 * What a role may open comes from protocol's one table of role -> capabilities (roles.ts), as on the server.
 */
import type { Capability } from '@talkgroup/protocol';
import { type ReactNode, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getSession, homeOf, useMay, useSession, usesConsole } from '../api/session.ts';
import NotFoundPage from './NotFoundPage.tsx';

/** /dashboard, /usersList, /channelsList, /activities, /groupCallView: no session token -> /signin. */
export { homeOf };

export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  // Issue 38: a second factor to set up first (the organisation requires one): nothing else until it is done.
  if (session.secondFactorSetup && location.pathname !== '/account') return <Navigate to="/account" replace />;
  return children;
}

/**
 * The console (/dashboard, /usersList, /channelsList, /activities, ...): a member goes to /talk, its own app,
 * and never meets the console's 403s. The group call view stays open to members: it is a channel's room,
 * which they may enter.
 */
export function RequireConsole({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname } = useLocation();
  if (session?.user && !usesConsole(session.user.role)) {
    // The dispatch console and the reports are no pages of theirs (issues 27, 50): they learn they do not exist for them.
    if (/^\/(dispatch|reports)\/?$/i.test(pathname)) return <NotFoundPage />;
    if (!/^\/groupCallView\//i.test(pathname)) return <Navigate to="/talk" replace />;
  }
  return children;
}

/** A console page for those whose role holds this capability (somewhere); anyone else gets the not-found page. */
export function Allowed({ capability, children }: { capability: Capability; children: ReactNode }) {
  const { somewhere } = useMay();
  return somewhere(capability) ? children : <NotFoundPage />;
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

/** /: with a session token /dashboard (a member: /talk; a dispatcher: its channels), otherwise /signin. */
export function HomeRedirect() {
  return <Navigate to={homeOf(useSession())} replace />;
}
