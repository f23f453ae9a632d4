/** HomeSection draws the markup Home's Anchor Pings and Quick Ping Friends each used to write. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HomeSection } from './HomeSection';

describe('HomeSection', () => {
  it('is a section named by its heading, with `aside` beside it in the head row', () => {
    const html = renderToStaticMarkup(
      <HomeSection
        id="anchors-title"
        title="Anchor Pings"
        aside={<span className="home-section__meta">2/5</span>}
      >
        <ul className="anchor-strip" />
      </HomeSection>,
    );
    expect(html).toBe(
      '<section class="home-section" aria-labelledby="anchors-title">' +
        '<div class="home-section__head">' +
        '<h2 id="anchors-title" class="home-section__title">Anchor Pings</h2>' +
        '<span class="home-section__meta">2/5</span></div>' +
        '<ul class="anchor-strip"></ul></section>',
    );
  });
});
