import { createRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ScreenPlaceholder } from '../components/Screen';
import { rootRoute } from './__root';
import { guard } from './guard';

/** Friend search (/friends-search): the one dark-themed screen (spec section 1). */
export const friendsSearchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/friends-search',
  beforeLoad: guard('member'),
  component: FriendsSearchScreen,
});

function FriendsSearchScreen() {
  useDarkTheme();
  return (
    <ScreenPlaceholder
      title="Find Friends"
      purpose="Search people by name or e-mail (2 characters or more), and answer the requests waiting for you."
    />
  );
}

/** The whole page goes dark while this screen is shown. */
function useDarkTheme() {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = 'dark';
    return () => {
      delete root.dataset.theme;
    };
  }, []);
}
