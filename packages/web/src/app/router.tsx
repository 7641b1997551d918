/**
 * The route table of spec section 2. Sign-in and sign-up ship in the first bundle; every other page (and the
 * shell) is its own chunk. A feature owns one file per page; this table is the only place that wires them.
 * Paths match case-insensitively (React Router's default), so /Signin is /signin.
 */

import type { Capability } from '@talkgroup/protocol';
import i18n from 'i18next';
import { type ComponentType, lazy, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.ts';
import { SignInPage } from '../features/auth/index.ts';
import type { Namespace } from '../i18n/languages.ts';
import { Allowed, HomeRedirect, RedirectIfSignedIn, RequireConsole, RequireSession } from './guards.tsx';
import { RootLayout } from './RootLayout.tsx';
import { RouteError } from './RouteError.tsx';

/**
 * A lazily loaded page whose translations load alongside its code, not after it (one round trip, not two).
 * Keep the loaders here: prefetch() below and the route table share them.
 */
function page(load: () => Promise<{ default: ComponentType }>, ...namespaces: Namespace[]) {
  const loadAll = () => Promise.all([load(), i18n.loadNamespaces(namespaces)]).then(([module]) => module);
  return Object.assign(lazy(loadAll), { preload: loadAll });
}

const ShellLayout = page(() => import('./shell/ShellLayout.tsx'));
// The first run's page, from its own file: apart from the sign-in page's first load.
const SignUpPage = page(() => import('../features/auth/SignUpPage.tsx'));
const NotFoundPage = page(() => import('./NotFoundPage.tsx'));
const DeviceDisabledPage = page(() => import('./DeviceDisabledPage.tsx'));
const DashboardPage = page(
  () => import('./dashboard/index.ts').then((feature) => ({ default: feature.DashboardPage })),
  'dashboard',
  'activity',
  'users',
  'channels',
);
const UsersPage = page(
  () => import('../features/users/index.ts').then((feature) => ({ default: feature.UsersPage })),
  'users',
  'activity',
  'tracking',
  'account',
);
const ChannelsPage = page(
  () => import('../features/channels/index.ts').then((feature) => ({ default: feature.ChannelsPage })),
  'channels',
  'users',
);
const ActivitiesPage = page(
  () => import('../features/activities/index.ts').then((feature) => ({ default: feature.ActivitiesPage })),
  'activities',
  'activity',
);
const AuditPage = page(
  () => import('../features/audit/index.ts').then((feature) => ({ default: feature.AuditPage })),
  'audit',
);
// The room shows activity sentences on its map, and its sidebar opens the channels' Search User dialog.
const GroupCallPage = page(
  () => import('../features/room/GroupCallPage.tsx'),
  'room',
  'activity',
  'channels',
  'users',
  'tracking',
  'calls',
);
// The dispatch console (issue 27) shows tiles of rooms, their members' map (trails and zones) and private calls.
const DispatchPage = page(
  () => import('../features/dispatch/index.ts').then((feature) => ({ default: feature.DispatchPage })),
  'dispatch',
  'room',
  'activity',
  'calls',
  'tracking',
);
const MobileCallPage = page(() => import('../features/room/MobileCallPage.tsx'), 'room', 'activity', 'tracking');
const UserCallPage = page(() => import('../features/room/UserCallPage.tsx'), 'room');
const JoinPage = page(() => import('../features/room/JoinPage.tsx'), 'room');
// The members' app (/talk): its own frame, no console shell; a channel page shows the room's pieces.
const TalkShell = page(() => import('./TalkShell.tsx'), 'talk');
const TalkHomePage = page(
  () => import('../features/talk/index.ts').then((feature) => ({ default: feature.TalkHomePage })),
  'talk',
);
const TalkChannelPage = page(
  () => import('../features/talk/index.ts').then((feature) => ({ default: feature.TalkChannelPage })),
  'talk',
  'room',
  'activity',
  'tracking',
  'calls',
);

// The organisation's security policy (issue 38), administrators only.
const SecurityPage = page(
  () => import('../features/settings/index.ts').then((feature) => ({ default: feature.SecurityPage })),
  'settings',
);
// Reports over a period (issue 50): its charts (@mui/x-charts) load with this page only.
const ReportsPage = page(
  () => import('../features/reports/index.ts').then((feature) => ({ default: feature.ReportsPage })),
  'reports',
);
// The user's own account (issue 38): every role, console or not, in a frame of its own.
const AccountShell = page(() => import('./AccountShell.tsx'), 'account');

/** Once the first page is shown: fetch, while idle, what the next screen will need (sign-in leads to the channels). */
export function prefetchLikelyPages(): void {
  const idle = window.requestIdleCallback ?? ((work: () => void) => window.setTimeout(work, 1500));
  idle(() => {
    void ShellLayout.preload().catch(() => {});
    void ChannelsPage.preload().catch(() => {});
  });
}

const allowed = (capability: Capability, element: ReactNode) => <Allowed capability={capability}>{element}</Allowed>;

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomeRedirect /> },
      {
        path: 'signin',
        element: (
          <RedirectIfSignedIn>
            <SignInPage />
          </RedirectIfSignedIn>
        ),
      },
      {
        path: 'signup',
        element: (
          <RedirectIfSignedIn>
            <SignUpPage />
          </RedirectIfSignedIn>
        ),
      },
      {
        element: (
          <RequireSession>
            <RequireConsole>
              <ShellLayout />
            </RequireConsole>
          </RequireSession>
        ),
        children: [
          // Each page for the roles that hold what it shows (protocol's roles.ts); the others get the not-found page.
          { path: 'dashboard', element: allowed('statistics.read', <DashboardPage />) },
          { path: 'usersList', element: allowed('users.manage', <UsersPage />) },
          { path: 'channelsList', element: allowed('channel.read', <ChannelsPage />) },
          { path: 'activities', element: allowed('channel.activities', <ActivitiesPage />) },
          { path: 'auditLog', element: allowed('audit.read', <AuditPage />) },
          { path: 'dispatch', element: allowed('channel.monitor', <DispatchPage />) },
          { path: 'settings', element: allowed('settings.manage', <SecurityPage />) },
          { path: 'reports', element: allowed('channel.reports', <ReportsPage />) },
          { path: 'groupCallView/:roomId', element: <GroupCallPage /> },
        ],
      },
      {
        path: 'talk',
        element: (
          <RequireSession>
            <TalkShell />
          </RequireSession>
        ),
        children: [
          { index: true, element: <TalkHomePage /> },
          { path: ':channelId', element: <TalkChannelPage /> },
        ],
      },
      {
        path: 'account',
        element: (
          <RequireSession>
            <AccountShell />
          </RequireSession>
        ),
      },
      // Call views open from a link on a member's device: no guard, no shell (spec section 2).
      { path: 'mobileCallView/:roomId', element: <MobileCallPage /> },
      { path: 'userCallView/:data', element: <UserCallPage /> },
      { path: 'join/:roomId', element: <JoinPage /> },
      // Issue 60: a device disabled by an administrator lands here, signed out and wiped.
      { path: 'device-disabled', element: <DeviceDisabledPage /> },
      { path: 'notFound', element: <NotFoundPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

setUnauthorizedHandler(() => {
  void router.navigate('/signin', { replace: true, state: { notice: 'expired' } });
});
