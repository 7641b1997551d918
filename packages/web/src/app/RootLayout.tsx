/** The root route: lazy pages suspend here until their code and texts arrive. */
import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useSession } from '../api/session.ts';
import { PageLoader } from '../components/PageLoader.tsx';

// Lazily: it holds the socket client, which the sign-in page does not need.
const RightsFollower = lazy(() => import('./RightsFollower.tsx'));

export function RootLayout() {
  const session = useSession();
  // A session waiting for its second factor's setup has no real time (the server refuses its socket).
  const signedIn = session !== null && !session.secondFactorSetup;
  return (
    <>
      <Suspense fallback={<PageLoader fullScreen />}>
        <Outlet />
      </Suspense>
      {/* On every page of a signed-in user (console, /talk, a call view): rights changed while connected. */}
      {signedIn ? (
        <Suspense fallback={null}>
          <RightsFollower />
        </Suspense>
      ) : null}
      <ScrollRestoration />
    </>
  );
}
