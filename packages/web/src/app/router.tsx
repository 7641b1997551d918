/**
 * The route table of spec section 2. Sign-in and sign-up ship in the first bundle; every other page (and the
 * shell) is its own chunk. A feature owns one file per page; this table is the only place that wires them.
 * Paths match case-insensitively (React Router's default), so /Signin is /signin.
 */
import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.ts';
import SignInPage from '../features/auth/SignInPage.tsx';
import SignUpPage from '../features/auth/SignUpPage.tsx';
import { HomeRedirect, RedirectIfSignedIn, RequireSession } from './guards.tsx';
import { RootLayout } from './RootLayout.tsx';
import { RouteError } from './RouteError.tsx';

const ShellLayout = lazy(() => import('./shell/ShellLayout.tsx'));
const NotFoundPage = lazy(() => import('./NotFoundPage.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage.tsx'));
const UsersPage = lazy(() => import('../features/users/UsersPage.tsx'));
const ChannelsPage = lazy(() => import('../features/channels/ChannelsPage.tsx'));
const ActivitiesPage = lazy(() => import('../features/activities/ActivitiesPage.tsx'));
const GroupCallPage = lazy(() => import('../features/room/GroupCallPage.tsx'));
const MobileCallPage = lazy(() => import('../features/room/MobileCallPage.tsx'));
const UserCallPage = lazy(() => import('../features/room/UserCallPage.tsx'));
const JoinPage = lazy(() => import('../features/room/JoinPage.tsx'));

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
            <ShellLayout />
          </RequireSession>
        ),
        children: [
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'usersList', element: <UsersPage /> },
          { path: 'channelsList', element: <ChannelsPage /> },
          { path: 'activities', element: <ActivitiesPage /> },
          { path: 'groupCallView/:roomId', element: <GroupCallPage /> },
        ],
      },
      // Call views open from a link on a member's device: no guard, no shell (spec section 2).
      { path: 'mobileCallView/:roomId', element: <MobileCallPage /> },
      { path: 'userCallView/:data', element: <UserCallPage /> },
      { path: 'join/:roomId', element: <JoinPage /> },
      { path: 'notFound', element: <NotFoundPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

setUnauthorizedHandler(() => {
  void router.navigate('/signin', { replace: true, state: { notice: 'expired' } });
});
