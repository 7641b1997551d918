import { Suspense } from 'react';
import { RouterProvider } from 'react-router/dom';
import { PageLoader } from '../components/PageLoader.tsx';
import { Providers } from './providers.tsx';
import { router } from './router.tsx';

export function App() {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </Suspense>
  );
}
