/** FriendsSection draws the markup the friends and activity screens each used to write. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FriendsSection } from './FriendsSection';

describe('FriendsSection', () => {
  it('is a section named by its heading, with its class and content', () => {
    const html = renderToStaticMarkup(
      <FriendsSection id="sent-title" title="Sent Requests" className="card">
        <ul className="fr-people" />
      </FriendsSection>,
    );
    expect(html).toBe(
      '<section class="card" aria-labelledby="sent-title">' +
        '<h2 id="sent-title" class="fr-section-title">Sent Requests</h2>' +
        '<ul class="fr-people"></ul></section>',
    );
  });

  it('has no class when given none, and takes a heading with a badge', () => {
    const html = renderToStaticMarkup(
      <FriendsSection
        id="anchor-requests-title"
        title={
          <>
            Anchor Requests <span className="fr-badge">2</span>
          </>
        }
      >
        <p>rows</p>
      </FriendsSection>,
    );
    expect(html).toBe(
      '<section aria-labelledby="anchor-requests-title">' +
        '<h2 id="anchor-requests-title" class="fr-section-title">' +
        'Anchor Requests <span class="fr-badge">2</span></h2><p>rows</p></section>',
    );
  });

  it('puts the heading and `aside` in one head row', () => {
    const html = renderToStaticMarkup(
      <FriendsSection
        id="my-prompts-title"
        title="Your Prompts"
        className="card fr-prompts-card"
        aside={<button type="button">Create Prompt</button>}
      >
        <p>list</p>
      </FriendsSection>,
    );
    expect(html).toBe(
      '<section class="card fr-prompts-card" aria-labelledby="my-prompts-title">' +
        '<div class="fr-section-head">' +
        '<h2 id="my-prompts-title" class="fr-section-title">Your Prompts</h2>' +
        '<button type="button">Create Prompt</button></div><p>list</p></section>',
    );
  });
});
