/**
 * One friend's energy: the friend, the score in percent, the level badge, a bar, the four
 * metrics (weekly pings, response rate, mood shares, streak days) and the tips.
 */
import { displayName, type EnergyEntry } from '@pingme/shared';
import { Avatar } from '../Avatar';
import { levelTone, meterValue, metricRows } from './energy-helpers';

export function EnergyBar({ entry }: { entry: EnergyEntry }) {
  const { value, text } = meterValue(entry.energyScore);
  return (
    <div
      className={`en-bar en-bar--${levelTone(entry.energyLevel)}`}
      role="meter"
      aria-label={`Energy with ${displayName(entry.friend)}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${text}, ${entry.energyLevel}`}
    >
      <span className="en-bar__fill" style={{ width: `${value}%` }} />
    </div>
  );
}

export function LevelBadge({ level }: { level: EnergyEntry['energyLevel'] }) {
  return <span className={`en-level en-level--${levelTone(level)}`}>{level}</span>;
}

export function EnergyCard({ entry }: { entry: EnergyEntry }) {
  const name = displayName(entry.friend);
  return (
    <article className="card en-card" aria-labelledby={`en-card-${entry.friendId}`}>
      <header className="en-card__head">
        <Avatar user={entry.friend} size="lg" />
        <div className="en-card__who">
          <h3 id={`en-card-${entry.friendId}`} className="en-card__name">
            {name}
          </h3>
          <LevelBadge level={entry.energyLevel} />
        </div>
        <strong className="en-card__score">{meterValue(entry.energyScore).text}</strong>
      </header>
      <EnergyBar entry={entry} />
      <dl className="en-metrics">
        {metricRows(entry.metrics).map((row) => (
          <div key={row.key} className="en-metric">
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
            <span className="en-metric__track" aria-hidden="true">
              <span style={{ width: `${Math.round(row.share * 100)}%` }} />
            </span>
          </div>
        ))}
      </dl>
      {entry.tips.length > 0 && (
        <section className="en-tips" aria-label={`Tips for you and ${name}`}>
          <h4 className="en-tips__title">Tips</h4>
          <ul>
            {entry.tips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
