/** useSearchBox: the input's props (a search field, no autofill) and the search its text drives. */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { render, unmountAll } from '../testing';
import { useSearchBox } from './useUserSearch';

afterEach(unmountAll);

function Box() {
  const { search, input } = useSearchBox();
  return (
    <>
      <input aria-label="Search" {...input} />
      <output>{search.status}</output>
    </>
  );
}

/** Types into the input as a person would (React listens to 'input'). */
async function type(el: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('useSearchBox', () => {
  it('gives a search input without autofill whose text drives the search', async () => {
    await render(<Box />);
    const input = document.querySelector('input')!;
    const status = () => document.querySelector('output')!.textContent;
    expect(input.type).toBe('search');
    expect(input.getAttribute('autocomplete')).toBe('off');
    expect(input.value).toBe('');
    expect(status()).toBe('idle');
    await type(input, 'a');
    expect(input.value).toBe('a');
    expect(status()).toBe('short');
    await type(input, '');
    expect(status()).toBe('idle');
  });
});
