/** Landing (/ for visitors): the tagline, three feature cards and 'Start Connecting'. */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { buttonClass } from '../components/Button';
import { BoltIcon, HeartIcon, StarIcon } from '../components/icons';

const FEATURES: { title: string; line: string; icon: ReactNode; tone: string }[] = [
  {
    title: 'Emotionally Resonant',
    line: 'Meaningful prompts',
    icon: <HeartIcon />,
    tone: 'rose',
  },
  {
    title: 'One-Tap Interactions',
    line: 'Send pings instantly',
    icon: <BoltIcon />,
    tone: 'amber',
  },
  {
    title: 'Favourite People',
    line: 'Playful pings, deep bonds',
    icon: <StarIcon />,
    tone: 'violet',
  },
];

export function LandingScreen() {
  return (
    <div className="landing">
      <section className="landing__hero" aria-labelledby="landing-title">
        <img src="/icon.svg" alt="" className="landing__logo" width="96" height="96" />
        <h1 id="landing-title" className="landing__title">
          PingMe
        </h1>
        <p className="landing__tagline">One tap. Real emotion. Stay connected.</p>
        <Link
          to="/auth"
          preload="intent"
          className={buttonClass('primary', 'lg', false, 'landing__cta')}
        >
          Start Connecting
        </Link>
      </section>

      <section aria-label="Features">
        <ul className="feature-list">
          {FEATURES.map((f) => (
            <li key={f.title} className={`feature-card feature-card--${f.tone}`}>
              <span className="feature-card__icon">{f.icon}</span>
              <div>
                <h2 className="feature-card__title">{f.title}</h2>
                <p className="feature-card__line">{f.line}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <p className="landing__closing">Feel it. Ping it. Own it.</p>
    </div>
  );
}
