/**
 * The Toaster reports the toast it has put in the document: leaving for sign-in counts the toast's
 * half second from then (navigation.ts), since the Toaster's chunk may load after the toast is
 * queued.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { toast, useToasts } from '../stores';
import { Toaster } from './Toaster';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(async () => {
  await act(async () => root?.unmount());
  root = undefined;
  useToasts.setState({ current: null, shownId: null });
});

describe('Toaster', () => {
  it('marks a toast queued before it mounted as shown once it is in the document', async () => {
    toast({ title: 'Sign in required', description: 'Sign in to accept this invitation.' });
    const id = useToasts.getState().current!.id;
    expect(useToasts.getState().shownId).toBeNull();
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    await act(async () => root!.render(<Toaster />));
    expect(document.body.textContent).toContain('Sign in required');
    expect(useToasts.getState().shownId).toBe(id);
  });

  it('marks each new toast in its turn', async () => {
    root = createRoot(document.body.appendChild(document.createElement('div')));
    await act(async () => root!.render(<Toaster />));
    expect(useToasts.getState().shownId).toBeNull();
    await act(async () => toast({ title: 'Unauthorized' }));
    expect(useToasts.getState().shownId).toBe(useToasts.getState().current!.id);
  });
});
