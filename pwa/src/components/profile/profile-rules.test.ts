import { describe, expect, it } from 'vitest';
import {
  anchorCaption,
  clockValue,
  isExtendedProfile,
  linkText,
  safeLink,
  seesFullProfile,
  weekTogether,
} from './profile-rules';
import { exportFileName } from './SettingsTab';
import { storedChanges } from '../../writes/profile';

describe('extended or simple view', () => {
  it('is extended for yourself or a friend with a handle, bio or status', () => {
    expect(isExtendedProfile('self', { handle: 'ada' })).toBe(true);
    expect(isExtendedProfile('friends', { bio: 'Hi' })).toBe(true);
    expect(isExtendedProfile('friends', { status: 'Out' })).toBe(true);
  });

  it('is simple without any of the three, or for anyone who is not a friend', () => {
    expect(isExtendedProfile('self', { handle: null, bio: '  ', status: '' })).toBe(false);
    expect(isExtendedProfile('none', { handle: 'ada', bio: 'Hi' })).toBe(false);
    expect(isExtendedProfile('request_sent', { handle: 'ada' })).toBe(false);
    expect(isExtendedProfile(undefined, { handle: 'ada' })).toBe(false);
    expect(isExtendedProfile('self', null)).toBe(false);
    expect(seesFullProfile('friends')).toBe(true);
    expect(seesFullProfile('request_received')).toBe(false);
  });
});

describe('anchor caption', () => {
  it('is the label cut at 20 characters plus ..., else the friend’s first name', () => {
    expect(anchorCaption({ label: 'Chai every Sunday with you' }, { firstName: 'Bea' })).toBe(
      'Chai every Sunday wi...',
    );
    expect(anchorCaption({ label: 'Exactly twenty chars' }, { firstName: 'Bea' })).toBe(
      'Exactly twenty chars',
    );
    expect(anchorCaption({ label: null }, { firstName: 'Bea', lastName: 'Tester' })).toBe('Bea');
    expect(anchorCaption({ label: '  ' }, { firstName: null, email: 'cal@x.test' })).toBe('cal');
  });
});

describe('links, times and file names', () => {
  it('only puts http(s) links into href', () => {
    expect(safeLink('https://ada.example.org')).toBe('https://ada.example.org/');
    expect(safeLink('javascript:alert(1)')).toBeNull();
    expect(safeLink('not a url')).toBeNull();
    expect(safeLink(null)).toBeNull();
    expect(linkText('https://ada.example.org/')).toBe('ada.example.org');
  });

  it('fills time inputs only with HH:MM', () => {
    expect(clockValue('22:00')).toBe('22:00');
    expect(clockValue(null)).toBe('');
    expect(clockValue('7pm')).toBe('');
  });

  it('names the export as the server suggests, else by the date', () => {
    expect(exportFileName('attachment; filename="pingme-export-2026-01-02.json"')).toBe(
      'pingme-export-2026-01-02.json',
    );
    expect(exportFileName(null, new Date('2026-03-04T10:00:00Z'))).toBe(
      'pingme-export-2026-03-04.json',
    );
  });

  it('stores trimmed text and turns empty text into null, as the server does', () => {
    expect(storedChanges({ bio: '  Hi  ', status: '', quietHoursStart: '' })).toEqual({
      bio: 'Hi',
      status: null,
      quietHoursStart: null,
    });
    expect(storedChanges({ rateLimitPerDay: 3 })).toEqual({ rateLimitPerDay: 3 });
  });
});

describe('a friend’s week', () => {
  const ME = 'me';
  const BEA = 'bea';
  const now = Date.parse('2026-05-10T12:00:00Z');
  const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
  const p = (senderId: string, receiverId: string, hoursAgo: number, text: string) => ({
    senderId,
    receiverId,
    createdAt: at(hoursAgo),
    prompt: { text },
  });

  it('counts the pings between the two of you in the last 7 days and their top 3 texts', () => {
    const pings = [
      p(BEA, ME, 1, 'hug'),
      p(BEA, ME, 2, 'talk'),
      p(ME, BEA, 3, 'talk'),
      p(ME, BEA, 4, 'chai'),
      p(BEA, ME, 5, 'walk'),
      p(BEA, ME, 24 * 8, 'hug'), // older than a week
      p('cal', ME, 1, 'hug'), // someone else
    ];
    expect(weekTogether(pings, ME, BEA, now)).toEqual({
      sent: 3,
      received: 2,
      themes: ['talk', 'hug', 'chai'],
    });
  });
});

describe('photo upload failures', () => {
  it('uses the spec’s words for a too-large body, no answer, and anything else', async () => {
    const { ApiError, NetworkError } = await import('../../api');
    const { photoUploadError } = await import('../../writes/profile');
    expect(photoUploadError(new ApiError(413, '{"error":"too large"}', 'Payload Too Large'))).toBe(
      'Image too large. Please try a smaller image or wait for server restart.',
    );
    expect(photoUploadError(new NetworkError())).toBe(
      'Network error. Please check your connection and try again.',
    );
    expect(photoUploadError(new ApiError(400, '{"error":"bad"}', 'Bad Request'))).toBe(
      'Failed to update profile. Please try again.',
    );
    // Too many uploads at once on the server: its own sentence (try again in a moment).
    const busy = JSON.stringify({ error: 'Busy: try again in a moment.', code: 'server_busy' });
    expect(photoUploadError(new ApiError(503, busy, 'Service Unavailable'))).toBe(
      'Busy: try again in a moment.',
    );
  });
});
