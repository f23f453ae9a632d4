import type { SyncFriendship } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { resolveRelation } from './relation';

const REQ = '0190a000-0000-7000-8000-000000000009';
const row = (over: Partial<SyncFriendship>) =>
  ({ id: REQ, status: 'pending', direction: 'sent', ...over }) as SyncFriendship;

describe('resolveRelation', () => {
  it('uses the server’s relation when the device knows nothing newer', () => {
    expect(resolveRelation({ relation: 'none', requestId: null }, undefined, undefined)).toEqual({
      relation: 'none',
      requestId: null,
    });
    expect(
      resolveRelation({ relation: 'friends', requestId: null }, undefined, undefined).relation,
    ).toBe('friends');
    expect(
      resolveRelation({ relation: 'request_sent', requestId: REQ }, undefined, undefined),
    ).toEqual({ relation: 'sent', requestId: REQ });
    expect(
      resolveRelation({ relation: 'request_received', requestId: REQ }, undefined, undefined),
    ).toEqual({ relation: 'received', requestId: REQ });
  });

  it('a choice just made wins over the search answer', () => {
    expect(resolveRelation({ relation: 'none', requestId: null }, undefined, 'sent').relation).toBe(
      'sent',
    );
    expect(
      resolveRelation({ relation: 'request_received', requestId: REQ }, undefined, 'none').relation,
    ).toBe('none');
  });

  it('the device’s friendship row wins over everything', () => {
    expect(
      resolveRelation({ relation: 'none', requestId: null }, row({ status: 'accepted' }), 'sent')
        .relation,
    ).toBe('friends');
    expect(
      resolveRelation(
        { relation: 'none', requestId: null },
        row({ direction: 'received' }),
        undefined,
      ),
    ).toEqual({ relation: 'received', requestId: REQ });
  });
});
