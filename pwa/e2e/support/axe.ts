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

/** Serious and critical violations on the whole page. */
export async function seriousA11yProblems(page: Page): Promise<A11yProblem[]> {
  return seriousIn(page, null);
}

/**
 * The same on parts of the page only (the sections a test owns; others' sections are checked by
 * their own tests); selectors that match nothing are skipped.
 */
export async function seriousA11yProblemsIn(
  page: Page,
  selectors: string[],
): Promise<A11yProblem[]> {
  return seriousIn(page, selectors);
}

async function seriousIn(page: Page, selectors: string[] | null): Promise<A11yProblem[]> {
  // A dialog fading in is half transparent: colour contrast measured mid-animation is wrong.
  // Wait for every finite animation (a pulsing dot runs forever and is left alone).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Evaluated through the DevTools protocol, which the app's CSP (script-src 'self') allows;
  // a <script> tag with inline content would be refused.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown): Promise<AxeResults> } }).axe;
    if (include === null) return (await axe.run(document)).violations;
    const present = include.filter((s) => document.querySelector(s));
    return (await axe.run({ include: present.map((s) => [s]) })).violations;
  }, selectors);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}
