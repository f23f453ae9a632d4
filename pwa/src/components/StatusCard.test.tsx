/** StatusCard: each tone's icon unless the card brings its own, the spinner while busy. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StatusCard } from './StatusCard';
import { AlertIcon, CheckIcon, ClockIcon, CompassIcon, MailIcon } from './icons';

const iconOf = (node: React.ReactElement) => {
  const html = renderToStaticMarkup(node);
  return html.match(/<span class="status-card__icon">(.*?)<\/span>/)?.[1] ?? null;
};
const markup = (node: React.ReactElement) => renderToStaticMarkup(node);

describe('StatusCard', () => {
  it("shows the tone's icon when none is given", () => {
    expect(iconOf(<StatusCard tone="success" title="Done" />)).toBe(markup(<CheckIcon />));
    expect(iconOf(<StatusCard tone="error" title="Failed" />)).toBe(markup(<AlertIcon />));
    expect(iconOf(<StatusCard tone="warning" title="Expired" />)).toBe(markup(<ClockIcon />));
    expect(iconOf(<StatusCard tone="info" title="Note" />)).toBeNull();
  });

  it('shows its own icon when given one', () => {
    expect(iconOf(<StatusCard tone="warning" icon={<CompassIcon />} title="404" />)).toBe(
      markup(<CompassIcon />),
    );
    expect(iconOf(<StatusCard tone="info" icon={<MailIcon />} title="Yours" />)).toBe(
      markup(<MailIcon />),
    );
  });

  it('shows the spinner, not an icon, while busy', () => {
    const html = markup(<StatusCard tone="busy" title="Verifying" />);
    expect(html).toContain('spinner spinner--lg');
    expect(html).not.toContain('status-card__icon');
  });
});
