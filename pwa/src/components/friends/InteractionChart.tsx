/**
 * The 30-day interaction chart of the fr-insights dialog: one bar per day (oldest left), drawn as
 * plain SVG. No chart library: 30 bars do not need one, and this costs no download.
 */
export interface ChartDay {
  date: string;
  pingsExchanged: number;
}

const W = 300;
const H = 96;
const GAP = 2;

function shortDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export function InteractionChart({ days }: { days: readonly ChartDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.pingsExchanged));
  const total = days.reduce((n, d) => n + d.pingsExchanged, 0);
  const busiest = days.reduce<ChartDay | undefined>(
    (best, d) => (d.pingsExchanged > (best?.pingsExchanged ?? 0) ? d : best),
    undefined,
  );
  const barW = days.length ? (W - GAP * (days.length - 1)) / days.length : W;
  const summary =
    `Pings exchanged per day over the last ${days.length} days: ${total} in total` +
    (busiest ? `, most on ${shortDate(busiest.date)} (${busiest.pingsExchanged}).` : '.');

  return (
    <figure className="fr-chart">
      <svg
        className="fr-chart__svg"
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
      >
        <line x1="0" y1={H - 0.5} x2={W} y2={H - 0.5} className="fr-chart__axis" />
        {days.map((d, i) => {
          const h = d.pingsExchanged === 0 ? 2 : Math.max(4, (d.pingsExchanged / max) * (H - 6));
          return (
            <rect
              key={d.date}
              x={i * (barW + GAP)}
              y={H - h}
              width={barW}
              height={h}
              rx={Math.min(3, barW / 2)}
              className={
                d.pingsExchanged === 0 ? 'fr-chart__bar chart__bar--empty' : 'fr-chart__bar'
              }
            >
              <title>{`${shortDate(d.date)}: ${d.pingsExchanged}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 && (
        <figcaption className="fr-chart__caption" aria-hidden="true">
          <span>{shortDate(days[0]!.date)}</span>
          <span>Today</span>
        </figcaption>
      )}
    </figure>
  );
}
