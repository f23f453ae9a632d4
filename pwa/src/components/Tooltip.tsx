import * as RadixTooltip from '@radix-ui/react-tooltip';
import { DELAYS_MS } from '@pingme/shared';
import type { ReactNode } from 'react';

/** Tooltips open after the spec's 700 ms; a group of tooltips may share one provider. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={DELAYS_MS.tooltip}>{children}</RadixTooltip.Provider>
  );
}

/**
 * A hint on hover and keyboard focus. The trigger must be focusable and have its own name.
 * Each tooltip brings its provider (700 ms), so the shell needs none and Radix Tooltip loads
 * only with the screens that use one (docs/pwa.md, "Bundle size").
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <TooltipProvider>
      <TooltipRoot content={content}>{children}</TooltipRoot>
    </TooltipProvider>
  );
}

function TooltipRoot({ content, children }: { content: ReactNode; children: ReactNode }) {
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
