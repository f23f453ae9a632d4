/** Product constants from the specification, section 9 (and section 3 for the lists). */

export const LIMITS = {
  anchors: 5,
  setupSteps: 4,
  tourSteps: 5,
  promptText: 100,
  promptEmoji: 4,
  customPingText: 200,
  moodNote: 200,
  surpriseText: 200,
  tagline: 100,
  bio: 150,
  location: 100,
  status: 100,
  personalLink: 200,
  firstName: 50,
  lastName: 50,
  email: 254,
  usernameMin: 3,
  usernameMax: 30,
  passwordMin: 6,
  passwordMax: 200,
  imageBytesExtended: 5 * 1024 * 1024,
  imageBytesSimple: 25 * 1024 * 1024,
  imageLongestSide: 800,
  imageJpegQuality: 0.8,
  /**
   * The square sizes (px) the server stores each uploaded photo at (docs/decisions.md): the
   * largest avatar is 88 CSS px, drawn at up to 3 device pixels each (264); the 96 px copy serves
   * the 32 and 44 px avatars on screens of up to 2 device pixels.
   */
  avatarPx: 264,
  avatarSmallPx: 96,
  dailyPingLimitDefault: 50,
  dailyPingLimitMax: 1000,
  homeDefaultPrompts: 4,
  homeRecentActivities: 2,
  activityLatestPings: 5,
  anchorActivityWindowDays: 7,
  insightsWindowDays: 30,
  friendProfileRecentPings: 5,
  setupFriendSuggestions: 5,
  usernameSuggestions: 6,
  topPrompts: 3,
  topThemes: 3,
  topBadges: 3,
  milestoneSentPings: 100,
  anchorLabelMax: 20,
  searchMinChars: 2,
  searchMaxChars: 100,
} as const;

export const DELAYS_MS = {
  markReadCard: 1000,
  markAllRead: 2000,
  viewedMarker: 2000,
  newPingBanner: 4000,
  newPingToast: 3000,
  acceptedLabel: 3000,
  loginRedirect: 500,
  loginSuccessRedirect: 1000,
  resetRedirect: 3000,
  inviteSuccessRedirect: 1500,
  usernameCheckPause: 500,
  searchDebounce: 300,
  toastDefault: 5000,
  toastRemove: 1_000_000,
  tooltip: 700,
} as const;

export const POLL_MS = {
  user: 5000,
  pings: 5000,
  energy: 30_000,
  pendingFriendsNav: 10_000,
  pendingFriendsBanner: 30_000,
  anchorRequests: 10_000,
  adminMetrics: 30_000,
  viewedNotifications: 2000,
  freshness: 5 * 60_000,
} as const;

export const BADGE_CAPS = { unread: 99, friendRequests: 9 } as const;

export const MOODS = [
  'happy',
  'chill',
  'busy',
  'tired',
  'stressed',
  'thoughtful',
  'energetic',
  'cozy',
  'grateful',
  'creative',
  'adventurous',
  'peaceful',
  'playful',
  'romantic',
  'confident',
  'melancholy',
  'anxious',
  'nostalgic',
  'motivated',
  'confused',
  'excited',
  'sleepy',
  'determined',
  'mischievous',
] as const;
export type MoodName = (typeof MOODS)[number];

export const SURPRISE_EMOJIS = [
  '💫',
  '✨',
  '🎉',
  '🎊',
  '🌟',
  '💝',
  '🎁',
  '🌈',
  '🦄',
  '🔥',
] as const;
export const DEFAULT_SURPRISE_EMOJI = '💫';
export const DEFAULT_PROMPT_EMOJI = '💭';
export const DEFAULT_TAGLINE = 'Ready to connect with friends! 💭';

export const REACTION_TYPES = ['heart', 'yes', 'wow'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const POPULAR_LOCATIONS = [
  'San Francisco',
  'New York',
  'London',
  'Toronto',
  'Sydney',
  'Berlin',
] as const;

export const PROFILE_VISIBILITIES = ['public', 'private'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];

export const ANCHOR_COLOR_FORM_DEFAULT = '#e35120';
export const ANCHOR_COLOR_DISPLAY_DEFAULT = '#FF8A65';
