/** axe-core injected into the page; only serious and critical violations fail a test. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface A11yProblem {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

export async function seriousA11yProblems(page: Page): Promise<A11yProblem[]> {
  // Evaluated through the DevTools protocol, which the app's CSP (script-src 'self') allows;
  // a <script> tag with inline content would be refused.
  await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: Document): Promise<AxeResults> } }).axe.run(document),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}
