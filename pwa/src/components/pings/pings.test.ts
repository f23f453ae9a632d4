import type { Prompt } from '@pingme/shared';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { shouldAnnounce } from './NewPingBanner';
import { sentToast } from '../../dialogs/SendPromptDialog';
import { PingTile, friendCountLabel, promptFriendCount } from './YourPings';

describe('ping components: rules', () => {
  it('announces a newer ping, and on a first load only an unread one', () => {
    expect(shouldAnnounce({ id: '0192-b', isRead: true }, '0192-a')).toBe(true);
    expect(shouldAnnounce({ id: '0192-a', isRead: false }, '0192-a')).toBe(false);
    expect(shouldAnnounce({ id: '0192-a', isRead: false }, '0192-b')).toBe(false);
    expect(shouldAnnounce({ id: '0192-a', isRead: false }, undefined)).toBe(true);
    expect(shouldAnnounce({ id: '0192-a', isRead: true }, undefined)).toBe(false);
  });

  it('counts friends for a tile: all for a default prompt, the assigned ones for a custom one', () => {
    const base = { text: 't', emoji: '', ownerId: null, createdAt: '', updatedAt: '' };
    const assignment = {
      friendId: 'f',
      friend: { id: 'f', firstName: null, lastName: null, profileImageUrl: null },
    };
    expect(
      promptFriendCount({ ...base, id: 'a', isDefault: true, assignments: [] } as Prompt, 3),
    ).toBe(3);
    expect(
      promptFriendCount(
        { ...base, id: 'b', isDefault: false, assignments: [assignment] } as Prompt,
        3,
      ),
    ).toBe(1);
    expect(friendCountLabel(1)).toBe('1 friend');
    expect(friendCountLabel(0)).toBe('0 friends');
    expect(friendCountLabel(2)).toBe('2 friends');
  });

  it('words the success toast for one friend and for a group', () => {
    expect(sentToast('Ping me when you miss me', 1)).toMatchObject({
      title: 'Pings sent! 🎉',
      description: 'Sent "Ping me when you miss me" to your friend',
    });
    expect(sentToast('Ping me when you miss me', 3).description).toBe(
      'Sent "Ping me when you miss me" to 3 friends as a group ping',
    );
  });

  it('draws a prompt tile and the Custom Ping tile with one face: emoji, text, a line under it', () => {
    const tile = (look: string, emoji: string, text: string, detail: string) =>
      renderToStaticMarkup(createElement(PingTile, { look, emoji, text, detail, onClick() {} }));
    expect(tile('ping-tile--custom', '✏️', 'Custom Ping', 'Write your own')).toBe(
      '<li><button type="button" class="ping-tile ping-tile--custom">' +
        '<span class="ping-tile__emoji" aria-hidden="true">✏️</span>' +
        '<span class="ping-tile__text">Custom Ping</span>' +
        '<span class="ping-tile__count">Write your own</span></button></li>',
    );
    expect(tile('ping-tile--c2', '🌈', 'Ping me when you see a rainbow', '3 friends')).toBe(
      '<li><button type="button" class="ping-tile ping-tile--c2">' +
        '<span class="ping-tile__emoji" aria-hidden="true">🌈</span>' +
        '<span class="ping-tile__text">Ping me when you see a rainbow</span>' +
        '<span class="ping-tile__count">3 friends</span></button></li>',
    );
  });
});
