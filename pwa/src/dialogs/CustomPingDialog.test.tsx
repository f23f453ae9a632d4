/**
 * Home's Custom Ping dialog asks for the message and emoji as the friend's page does
 * (CustomPingFields), and its counter counts what the limit counts: an emoji is two UTF-16 units,
 * so 100 of them fill the 200 the text area (`maxLength`) and the server (`max`) allow. The dialog
 * used to count code points (100/200) while refusing any more input.
 */
import { LIMITS, type SelfUser } from '@pingme/shared';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { render, unmountAll } from '../components/testing';
import { CustomPingDialog } from './CustomPingDialog';

const me = { id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', firstName: 'Ada' } as SelfUser;
const friend = {
  id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
  firstName: 'Bo',
  lastName: null,
  profileImageUrl: null,
};

afterEach(unmountAll);

function labelled(text: string): HTMLInputElement | HTMLTextAreaElement {
  const label = [...document.querySelectorAll('label')].find((l) => l.textContent === text);
  const control = label && document.getElementById(label.htmlFor);
  if (!control) throw new Error(`no control labelled ${text}`);
  return control as HTMLInputElement | HTMLTextAreaElement;
}

/** Types into a React-controlled field as a browser does: the value, then an input event. */
function type(field: HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
  setter.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('CustomPingDialog', () => {
  it('has the fields of the friend’s page, and counts the message as its limit does', async () => {
    await render(
      <CustomPingDialog open me={me} friends={[friend as never]} onOpenChange={() => undefined} />,
    );
    const message = labelled('Your message') as HTMLTextAreaElement;
    expect(message.maxLength).toBe(LIMITS.customPingText);
    expect(labelled('Emoji (optional)').tagName).toBe('INPUT');
    await act(async () => type(message, '🙂'.repeat(100)));
    const counter = document.getElementById(message.getAttribute('aria-describedby')!);
    expect(counter?.textContent).toBe(`${LIMITS.customPingText}/${LIMITS.customPingText}`);
  });
});
