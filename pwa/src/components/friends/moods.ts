/** The emoji of each of the 24 moods (spec section 3); the mood dialog and the friends list show them. */
import { MOODS, type MoodName } from '@pingme/shared';

export const MOOD_EMOJIS: Record<MoodName, string> = {
  happy: '😊',
  chill: '😎',
  busy: '🏃',
  tired: '😴',
  stressed: '😫',
  thoughtful: '🤔',
  energetic: '⚡',
  cozy: '☕',
  grateful: '🙏',
  creative: '🎨',
  adventurous: '🧭',
  peaceful: '🕊️',
  playful: '🤪',
  romantic: '💕',
  confident: '💪',
  melancholy: '🌧️',
  anxious: '😰',
  nostalgic: '📼',
  motivated: '🚀',
  confused: '😵‍💫',
  excited: '🤩',
  sleepy: '🥱',
  determined: '🎯',
  mischievous: '😈',
};

/** The moods in the spec's order, each with its emoji and a label ('Happy'). */
export const MOOD_OPTIONS = MOODS.map((mood) => ({
  mood,
  emoji: MOOD_EMOJIS[mood],
  label: mood[0]!.toUpperCase() + mood.slice(1),
}));
