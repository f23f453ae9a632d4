/**
 * ButtonLink is a router link with the button look: the classes buttonClass gives (the router's
 * own 'active' after them on the page it leads to), the href and the router's navigation.
 */
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ButtonLink } from './ButtonLink';
import { render, unmountAll } from './testing';

afterEach(unmountAll);

function links() {
  return (
    <nav>
      <ButtonLink to="/friends">Friends</ButtonLink>
      <ButtonLink to="/friend/$friendId" params={{ friendId: 'f1' }} variant="secondary" size="sm">
        Your friendship
      </ButtonLink>
      <ButtonLink to="/profile" variant="ghost" size="lg" block>
        Profile
      </ButtonLink>
    </nav>
  );
}

async function renderAt(path: string) {
  const rootRoute = createRootRoute();
  const page = (p: string) =>
    createRoute({ getParentRoute: () => rootRoute, path: p, component: links });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page('/'), page('/friends'), page('/profile')]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await act(async () => router.load());
  await render(<RouterProvider router={router} />);
  return router;
}

const anchor = (name: string) =>
  [...document.querySelectorAll('a')].find((a) => a.textContent === name)!;

describe('ButtonLink', () => {
  it('is an anchor with the button classes and the route its props name', async () => {
    await renderAt('/');
    expect(anchor('Friends').getAttribute('href')).toBe('/friends');
    expect(anchor('Friends').className).toBe('btn btn--primary btn--md');
    expect(anchor('Your friendship').getAttribute('href')).toBe('/friend/f1');
    expect(anchor('Your friendship').className).toBe('btn btn--secondary btn--sm');
    expect(anchor('Profile').className).toBe('btn btn--ghost btn--lg btn--block');
  });

  it("keeps the router's 'active' class on the page it leads to, and navigates", async () => {
    const router = await renderAt('/friends');
    expect(anchor('Friends').className).toBe('btn btn--primary btn--md active');
    await act(async () => {
      anchor('Profile').dispatchEvent(new MouseEvent('click', { bubbles: true, button: 0 }));
    });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(router.state.location.pathname).toBe('/profile');
    expect(anchor('Profile').className).toBe('btn btn--ghost btn--lg btn--block active');
  });
});
