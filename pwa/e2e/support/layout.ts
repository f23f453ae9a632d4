/**
 * What a person sees go wrong in a layout, measured in the page: the page or a box scrolling
 * sideways, text clipped without an ellipsis, an ellipsis without the full text in a label (title
 * or aria-label) for whoever wants to read it, and anything pushed off the side of the screen.
 * An intended sideways scroller (the Home strips) carries `data-scroll-x` and may scroll.
 */
import type { Locator, Page } from 'playwright-core';

/** Every layout problem on the page now, each as one line naming the element and its text. */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (el: Element) => {
      const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/)[0] : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50);
      return `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> "${text}"`;
    };
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1)
      problems.push(`the page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth} px)`);
    const width = doc.clientWidth;

    const shown = (el: HTMLElement, cs: CSSStyleDeclaration) =>
      cs.display !== 'none' &&
      cs.visibility !== 'hidden' &&
      el.getClientRects().length > 0 &&
      // visually-hidden text (for screen readers) is clipped to nothing on purpose
      cs.clip === 'auto' &&
      el.offsetWidth > 2;

    const offscreen = new Set<Element>();
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (!(el instanceof HTMLElement)) continue;
      const cs = getComputedStyle(el);
      if (!shown(el, cs)) continue;
      const over = el.scrollWidth - el.clientWidth;
      if (over > 1 && cs.overflowX !== 'visible' && !el.hasAttribute('data-scroll-x')) {
        const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ');
        if (cs.textOverflow === 'ellipsis') {
          const labelled = el.closest('[title], [aria-label]');
          const label = labelled?.getAttribute('title') ?? labelled?.getAttribute('aria-label');
          if (!label || !label.replace(/\s+/g, ' ').includes(text))
            problems.push(`an ellipsis without a full-text label: ${name(el)}`);
        } else if (cs.overflowX === 'hidden' || cs.overflowX === 'clip') {
          problems.push(`clipped by ${over} px without an ellipsis: ${name(el)}`);
        } else {
          problems.push(`scrolls sideways by ${over} px: ${name(el)}`);
        }
      }
      // Pushed off the screen where nothing clips it (a fixed toast, a wide dialog).
      const rect = el.getBoundingClientRect();
      if (rect.right > width + 1 || rect.left < -1) {
        let clipped = false;
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') {
            clipped = true;
            break;
          }
        }
        if (!clipped) offscreen.add(el);
        // Once per element that leaves the screen, not again for each of its children.
        if (!clipped && !(el.parentElement && offscreen.has(el.parentElement)))
          problems.push(
            `off the screen (${Math.round(rect.left)}..${Math.round(rect.right)} of ${width} px): ${name(el)}`,
          );
      }
    }
    return problems;
  });
}

/**
 * The texts that `covering` (a fixed element: the floating button, a toast) lies over: every
 * element with its own text whose box meets the covering one's box.
 */
export async function textsUnder(covering: Locator): Promise<string[]> {
  return covering.evaluate((cover) => {
    const c = cover.getBoundingClientRect();
    const under: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const parent = node.parentElement;
      if (!text || !parent || cover.contains(parent)) continue;
      const cs = getComputedStyle(parent);
      if (cs.visibility === 'hidden' || parent.closest('.visually-hidden, [aria-hidden="true"]'))
        continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      // The boxes of the glyphs' lines, not of the element that holds them.
      for (const r of range.getClientRects()) {
        if (r.right > c.left && r.left < c.right && r.bottom > c.top && r.top < c.bottom) {
          under.push(text.slice(0, 60));
          break;
        }
      }
    }
    return under;
  });
}
