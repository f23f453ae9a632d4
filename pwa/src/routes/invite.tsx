/**
 * Invite (/invite/{code}): check the code (GET /api/invites/{code}), then accept it
 * (POST /api/invites/{code}/use), which makes the inviter and you friends. The screen loads on
 * first visit: screens/InviteScreen.tsx.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './__root';
import { guard } from './guard';

export const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite/$code',
  beforeLoad: guard('invite'),
  component: lazyRouteComponent(() => import('../screens/InviteScreen'), 'InviteWithCode'),
});

export const inviteMissingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite',
  beforeLoad: guard('invite'),
  component: lazyRouteComponent(() => import('../screens/InviteScreen'), 'InviteMissing'),
});
