import { CreateAnchorBody, anchorCustomRewrite, graphemeCount } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import {
  ANCHOR_TEMPLATES,
  activeAnchors,
  chooseAnchorTarget,
  incomingRequest,
  selectableFriends,
} from './anchor-templates';

const ME = '00000000-0000-7000-8000-00000000aaaa';
const f = (n: number) => `00000000-0000-7000-8000-00000000000${n}`;
const anchor = (userId: string, friendId: string, status: 'pending' | 'accepted' | 'declined') => ({
  userId,
  friendId,
  status,
});

describe('anchor templates', () => {
  it('are the spec’s eight, in order, each with an emoji and a colour the server accepts', () => {
    expect(ANCHOR_TEMPLATES.map((t) => t.label)).toEqual([
      'Miss me',
      'Need me',
      'Free for chai',
      'Need to vent',
      'Want to celebrate',
      'Feeling low',
      'Proud of something',
      'Want company',
    ]);
    expect(new Set(ANCHOR_TEMPLATES.map((t) => t.id)).size).toBe(8);
    for (const t of ANCHOR_TEMPLATES) {
      expect(graphemeCount(t.emoji)).toBe(1);
      const body = CreateAnchorBody.safeParse({ friendId: f(1), ...t, id: undefined });
      expect(body.success, t.label).toBe(true);
    }
  });

  it('read as the friend’s first-person ping once rewritten', () => {
    const rewritten = ANCHOR_TEMPLATES.map((t) => anchorCustomRewrite(t.text));
    expect(rewritten).toContain("I'm feeling low");
    expect(rewritten).toContain("I'm free for chai");
    for (const text of rewritten) expect(text).toMatch(/^I('m)? /);
  });
});

describe('choosing the friend', () => {
  const friends = [{ id: f(1) }, { id: f(2) }, { id: f(3) }];

  it('picks the first friend without an anchor, counting pending and accepted either way', () => {
    const anchors = [anchor(ME, f(1), 'accepted'), anchor(f(2), ME, 'pending')];
    expect(chooseAnchorTarget(friends, anchors, ME)).toEqual({
      kind: 'ok',
      friendId: f(3),
      autoAccept: false,
    });
    // A declined anchor does not count: that friend is free again.
    expect(chooseAnchorTarget(friends, [anchor(ME, f(1), 'declined')], ME)).toMatchObject({
      friendId: f(1),
    });
  });

  it('says there is nobody left when every friend has an anchor, or there are no friends', () => {
    const anchors = friends.map((x) => anchor(ME, x.id, 'pending'));
    expect(chooseAnchorTarget(friends, anchors, ME)).toEqual({ kind: 'no-friends' });
    expect(chooseAnchorTarget([], [], ME)).toEqual({ kind: 'no-friends' });
  });

  it('stops at 5 anchors, but accepting a friend’s own request is still possible', () => {
    const others = [4, 5, 6, 7].map((n) => anchor(ME, f(n), 'accepted'));
    const full = [...others, anchor(ME, f(8), 'pending')];
    expect(chooseAnchorTarget(friends, full, ME)).toEqual({ kind: 'limit' });
    expect(chooseAnchorTarget(friends, full, ME, f(2))).toEqual({ kind: 'limit' });
    const anchors = [...others, anchor(f(1), ME, 'pending')];
    expect(activeAnchors(anchors, ME)).toHaveLength(5);
    expect(chooseAnchorTarget(friends, anchors, ME)).toEqual({
      kind: 'ok',
      friendId: f(1),
      autoAccept: true,
    });
    expect(chooseAnchorTarget(friends, anchors, ME, f(1))).toEqual({
      kind: 'ok',
      friendId: f(1),
      autoAccept: true,
    });
  });

  it('offers a waiting request once every other friend has an anchor', () => {
    const anchors = [
      anchor(ME, f(1), 'accepted'),
      anchor(f(2), ME, 'pending'),
      anchor(ME, f(3), 'pending'),
    ];
    expect(chooseAnchorTarget(friends, anchors, ME)).toEqual({
      kind: 'ok',
      friendId: f(2),
      autoAccept: true,
    });
  });

  it('uses the given friend, and tells when you already asked them', () => {
    expect(chooseAnchorTarget(friends, [], ME, f(2))).toMatchObject({ friendId: f(2) });
    expect(chooseAnchorTarget(friends, [anchor(ME, f(2), 'pending')], ME, f(2))).toEqual({
      kind: 'already',
      friendId: f(2),
    });
  });

  it('finds the incoming request and lists the friends one may still pick', () => {
    const anchors = [anchor(f(1), ME, 'pending'), anchor(ME, f(2), 'accepted')];
    expect(incomingRequest(anchors, ME, f(1))).toBe(anchors[0]);
    expect(incomingRequest(anchors, ME, f(2))).toBeUndefined();
    expect(selectableFriends(friends, anchors, ME).map((x) => x.id)).toEqual([f(3)]);
    expect(selectableFriends(friends, anchors, ME, f(1)).map((x) => x.id)).toEqual([f(1), f(3)]);
  });
});
