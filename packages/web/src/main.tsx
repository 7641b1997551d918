import './i18n/index.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { prefetchLikelyPages, router } from './app/router.tsx';
import { checkSessionOnLoad } from './app/sessionCheck.ts';

checkSessionOnLoad(() => {
  void router.navigate('/signin', { replace: true });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

prefetchLikelyPages();
