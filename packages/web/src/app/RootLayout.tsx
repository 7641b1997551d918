/** The root route: lazy pages suspend here until their code and texts arrive. */
import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { PageLoader } from '../components/PageLoader.tsx';

export function RootLayout() {
  return (
    <>
      <Suspense fallback={<PageLoader fullScreen />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}
