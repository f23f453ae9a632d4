import * as RadixTooltip from '@radix-ui/react-tooltip';
import { DELAYS_MS } from '@pingme/shared';
import type { ReactNode } from 'react';

/** Mount once near the root: tooltips open after the spec's 700 ms. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={DELAYS_MS.tooltip}>{children}</RadixTooltip.Provider>
  );
}

/** A hint on hover and keyboard focus. The trigger must be focusable and have its own name. */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content className="tooltip" sideOffset={6}>
          {content}
          <RadixTooltip.Arrow className="tooltip__arrow" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
