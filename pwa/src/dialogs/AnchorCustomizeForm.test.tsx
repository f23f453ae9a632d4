/**
 * The anchor form's text fields (message, emoji, label): each shows its value, takes what is
 * typed, and shows its own message from the shared CreateAnchorBody after a refused submit.
 */
import { uuidv7, type SelfUser } from '@pingme/shared';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useToasts } from '../stores';
import { render, unmountAll } from '../components/testing';
import { AnchorCustomizeForm } from './AnchorCustomizeForm';
import type { FriendRow } from './AnchorDialog';

afterEach(async () => {
  await unmountAll();
  useToasts.setState({ current: null, shownId: null });
});

const friend = { id: uuidv7(), firstName: 'Ada', lastName: 'Lovelace' } as FriendRow;

async function renderForm() {
  await render(
    <AnchorCustomizeForm
      me={{ id: uuidv7() } as SelfUser}
      friends={[friend]}
      anchors={[]}
      initialFriendId={friend.id}
      template={null}
      onBack={() => {}}
      onDone={() => {}}
    />,
  );
}

const input = (label: string) => {
  const el = [...document.querySelectorAll('label')].find((l) => l.textContent === label)!;
  return document.getElementById(el.htmlFor) as HTMLInputElement;
};

async function type(el: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

const errorOf = (el: HTMLInputElement) =>
  el.getAttribute('aria-invalid') === 'true'
    ? document.getElementById(`${el.id}-error`)?.textContent
    : undefined;

describe('AnchorCustomizeForm', () => {
  it('shows and takes each text field’s value', async () => {
    await renderForm();
    expect(input('Anchor message').value).toBe('');
    expect(input('Emoji').value).toBe('⚓');
    expect(input('Label (optional)').value).toBe('');
    await type(input('Anchor message'), 'Call me');
    await type(input('Emoji'), '🌈');
    await type(input('Label (optional)'), 'Sis');
    expect(input('Anchor message').value).toBe('Call me');
    expect(input('Emoji').value).toBe('🌈');
    expect(input('Label (optional)').value).toBe('Sis');
    expect(input('Anchor message').getAttribute('aria-invalid')).toBeNull();
  });

  it('puts each refused field’s message on that field', async () => {
    await renderForm();
    await type(input('Emoji'), 'not an emoji');
    await type(input('Label (optional)'), 'x'.repeat(41));
    await act(async () => {
      document.querySelector('form')!.requestSubmit();
    });
    expect(errorOf(input('Anchor message'))).toBe('Please enter an anchor ping message.');
    expect(errorOf(input('Emoji'))).toBeTruthy();
    expect(errorOf(input('Label (optional)'))).toBeTruthy();
    expect(useToasts.getState().current?.title).toBe('Invalid Input');
  });
});
