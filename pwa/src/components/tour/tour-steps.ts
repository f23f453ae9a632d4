/** The five steps of the guided tour on Home (spec section 4). */
export interface TourStep {
  emoji: string;
  title: string;
  body: string;
}

export const TOUR_CONTENT: readonly TourStep[] = [
  {
    emoji: '👋',
    title: 'Welcome to PingMe!',
    body: 'One tap. Real emotion. Here is a quick look at how to stay close to your people.',
  },
  {
    emoji: '⚡',
    title: 'Send quick pings',
    body: 'Tap a prompt under Your Pings, a friend under Quick Ping Friends, or Surprise Me to send a ping in one tap.',
  },
  {
    emoji: '🤝',
    title: 'Build your friend network',
    body: 'Find friends by name, accept their requests, or share your invite link. Pin your closest ones with an Anchor Ping.',
  },
  {
    emoji: '✨',
    title: 'Feel the energy',
    body: 'Reactions, moods and streaks keep friendships glowing. Watch each friendship’s energy in Analytics.',
  },
  {
    emoji: '🎉',
    title: 'You’re all set!',
    body: 'Start connecting. You can open this tour again any time with the help button on Home.',
  },
];
