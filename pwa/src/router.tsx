/** The route tree (code-based: one file per screen under routes/) and the router. */
import { createRouter } from '@tanstack/react-router';
import { rootRoute } from './routes/__root';
import { activityRoute } from './routes/activity';
import { adminRoute } from './routes/admin';
import { analyticsRoute } from './routes/analytics';
import { authRoute } from './routes/auth';
import { friendRoute } from './routes/friend';
import { friendsRoute } from './routes/friends';
import { friendsSearchRoute } from './routes/friends-search';
import { inboxRoute } from './routes/inbox';
import { indexRoute } from './routes/index';
import { inviteMissingRoute, inviteRoute } from './routes/invite';
import { notificationsRoute } from './routes/notifications';
import { pingFriendRoute } from './routes/ping-friend';
import { pingsRoute } from './routes/pings';
import { privacySettingsRoute } from './routes/privacy-settings';
import { profileRoute } from './routes/profile';
import { profileUserRoute } from './routes/profile-user';
import { resetPasswordRoute } from './routes/reset-password';
import { verifyEmailRoute } from './routes/verify-email';

export const routeTree = rootRoute.addChildren([
  // Visitors and signed-in people
  indexRoute,
  authRoute,
  resetPasswordRoute,
  verifyEmailRoute,
  inviteRoute,
  inviteMissingRoute,
  // Signed-in people
  pingsRoute,
  inboxRoute,
  friendsRoute,
  friendsSearchRoute,
  friendRoute,
  pingFriendRoute,
  activityRoute,
  notificationsRoute,
  analyticsRoute,
  profileRoute,
  profileUserRoute,
  privacySettingsRoute,
  adminRoute,
]);

/** Search params stay plain strings: a reset token is never JSON-parsed into a number. */
function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createAppRouter() {
  return createRouter({
    routeTree,
    parseSearch,
    stringifySearch,
    defaultPreload: false,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
