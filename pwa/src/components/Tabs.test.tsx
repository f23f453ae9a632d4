/**
 * Tabs keep the choice themselves from `defaultValue` (Analytics, Auth, the feeds, a friend's
 * send forms), or show the parent's `value` and only report a choice (Energy, the profile).
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Tabs, type TabItem } from './Tabs';
import { render, unmountAll } from './testing';

const items: TabItem[] = [
  { value: 'one', label: 'One', content: <p>first panel</p> },
  { value: 'two', label: 'Two', content: <p>second panel</p> },
];

afterEach(unmountAll);

/** Radix activates a tab on a primary-button press. */
async function choose(name: string) {
  const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent === name)!;
  await act(async () => {
    tab.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 }));
  });
}

const panel = () => document.querySelector('[role="tabpanel"]:not([hidden])')?.textContent;
const selected = () => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent;

describe('Tabs', () => {
  it('starts at defaultValue and switches on their own', async () => {
    await render(<Tabs label="Sections" defaultValue="two" items={items} />);
    expect(document.querySelector('[role="tablist"]')!.getAttribute('aria-label')).toBe('Sections');
    expect(selected()).toBe('Two');
    expect(panel()).toBe('second panel');
    await choose('One');
    expect(selected()).toBe('One');
    expect(panel()).toBe('first panel');
  });

  it("shows the parent's value and reports a choice without switching", async () => {
    const onValueChange = vi.fn();
    await render(<Tabs label="Sections" value="one" onValueChange={onValueChange} items={items} />);
    await choose('Two');
    expect(onValueChange).toHaveBeenCalledWith('two');
    expect(selected()).toBe('One');
    expect(panel()).toBe('first panel');
  });
});
