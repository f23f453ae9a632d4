/**
 * The Toaster reports the toast it has put in the document: leaving for sign-in counts the toast's
 * half second from then (navigation.ts), since the Toaster's chunk may load after the toast is
 * queued.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { toast, useToasts } from '../stores';
import { render, unmountAll } from './testing';
import { Toaster } from './Toaster';

afterEach(async () => {
  await unmountAll();
  useToasts.setState({ current: null, shownId: null });
});

describe('Toaster', () => {
  it('marks a toast queued before it mounted as shown once it is in the document', async () => {
    toast({ title: 'Sign in required', description: 'Sign in to accept this invitation.' });
    const id = useToasts.getState().current!.id;
    expect(useToasts.getState().shownId).toBeNull();
    await render(<Toaster />);
    expect(document.body.textContent).toContain('Sign in required');
    expect(useToasts.getState().shownId).toBe(id);
  });

  it('marks each new toast in its turn', async () => {
    await render(<Toaster />);
    expect(useToasts.getState().shownId).toBeNull();
    await act(async () => toast({ title: 'Unauthorized' }));
    expect(useToasts.getState().shownId).toBe(useToasts.getState().current!.id);
  });
});
