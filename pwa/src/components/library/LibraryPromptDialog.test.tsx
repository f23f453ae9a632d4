/**
 * The Library's prompt dialogs (assign, send, delete) in their shared frame: closed without a
 * prompt; open with it, the prompt first in .library-dialog, then the dialog's own body.
 */
import type { Prompt } from '@pingme/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { AssignPromptDialog } from '../../dialogs/AssignPromptDialog';
import { DeletePromptDialog } from '../../dialogs/DeletePromptDialog';
import type { FriendRow } from '../home/useHomeData';
import { render, unmountAll } from '../testing';

const prompt: Prompt = {
  id: '0190a0b0-0000-7000-8000-000000000001',
  text: 'Ping me when you see a rainbow',
  emoji: '🌈',
  isDefault: false,
  ownerId: '0190a0b0-0000-7000-8000-000000000002',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  assignments: [],
};
const friends = [
  { id: '0190a0b0-0000-7000-8000-000000000003', firstName: 'Ada', lastName: 'Lovelace' },
] as FriendRow[];

afterEach(unmountAll);

const body = () => document.querySelector('[role="dialog"] .library-dialog');

describe('LibraryPromptDialog', () => {
  it('is closed while there is no prompt', async () => {
    await render(<DeletePromptDialog prompt={null} onOpenChange={() => {}} />);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('shows the prompt, then the delete action', async () => {
    await render(<DeletePromptDialog prompt={prompt} onOpenChange={() => {}} />);
    const dialog = document.querySelector('[role="dialog"]')!;
    expect(dialog.querySelector('.dialog__title')!.textContent).toBe('Delete this prompt?');
    expect(body()!.outerHTML).toBe(
      '<div class="library-dialog"><p class="library-dialog__prompt">' +
        '<span aria-hidden="true">🌈</span>Ping me when you see a rainbow</p>' +
        '<div class="dialog__actions">' +
        '<button type="button" class="btn btn--secondary btn--md">Cancel</button>' +
        '<button type="button" class="btn btn--danger btn--md">Delete</button></div></div>',
    );
  });

  it('shows the prompt, then the friends to pick from and the action', async () => {
    await render(<AssignPromptDialog prompt={prompt} friends={friends} onOpenChange={() => {}} />);
    const parts = [...body()!.children].map((el) => el.className);
    expect(parts).toEqual(['library-dialog__prompt', 'friend-picker', 'dialog__actions']);
    expect(body()!.querySelector('.friend-picker__name')!.textContent).toBe('Ada Lovelace');
    expect(body()!.querySelector('.dialog__actions')!.textContent).toBe('CancelAssign');
  });
});
