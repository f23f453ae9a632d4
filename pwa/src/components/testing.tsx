/**
 * For component tests: a real React root on happy-dom's page, with React's act() environment
 * on. `render` mounts into a fresh element on the page; `unmountAll` (each test file's
 * afterEach) unmounts every root a test made and empties the page.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const roots: Root[] = [];

/** Renders `node` in a new root on the page (in `host` when given); answers the host. */
export async function render(
  node: ReactNode,
  host: HTMLElement = document.body.appendChild(document.createElement('div')),
): Promise<HTMLElement> {
  const root = createRoot(host);
  roots.push(root);
  await act(async () => root.render(node));
  return host;
}

export async function unmountAll(): Promise<void> {
  const mounted = roots.splice(0);
  await act(async () => {
    for (const root of mounted) root.unmount();
  });
  document.body.innerHTML = '';
}
