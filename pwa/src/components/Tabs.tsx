import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps {
  /** The accessible name of the tab list. */
  label: string;
  items: TabItem[];
  /** The tab shown first, when the tabs keep the choice themselves. */
  defaultValue?: string;
  /** The tab shown, when the parent keeps the choice (it also switches tabs itself). */
  value?: string;
  onValueChange?(value: string): void;
}

/** Tabs with arrow-key navigation between triggers (Radix). */
export function Tabs({ label, items, ...choice }: TabsProps) {
  return (
    <RadixTabs.Root className="tabs" {...choice}>
      <RadixTabs.List className="tabs__list" aria-label={label}>
        {items.map((item) => (
          <RadixTabs.Trigger key={item.value} value={item.value} className="tabs__trigger">
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value} className="tabs__panel">
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
