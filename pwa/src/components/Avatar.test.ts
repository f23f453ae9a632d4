import { describe, expect, it } from 'vitest';
import { photoSources } from './Avatar';

describe('photoSources', () => {
  const url = '/uploads/0190a000-0000-7000-8000-000000000001.webp';

  it('offers the 96 px copy and the 264 px photo, sized as the avatar is drawn', () => {
    expect(photoSources(url, 'md')).toEqual({
      srcSet:
        '/uploads/0190a000-0000-7000-8000-000000000001-96.webp 96w, /uploads/0190a000-0000-7000-8000-000000000001.webp 264w',
      sizes: '44px',
    });
    expect(photoSources(url, 'xl').sizes).toBe('88px');
  });

  it('leaves a photo from elsewhere (an OpenID provider) with its one size', () => {
    expect(photoSources('https://lh3.example.test/a.png', 'xl')).toEqual({});
  });
});
