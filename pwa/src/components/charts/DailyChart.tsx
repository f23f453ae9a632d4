/**
 * A 30-day picture: bars per day drawn by uPlot, which is imported only when a chart is on
 * screen (its own chunk, with its CSS; docs/decisions.md, "Charts"). Screen readers get the same
 * figures as text: a one-sentence summary per series and the full table under 'Show as table'.
 * The canvas itself is hidden from them.
 */
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { describeSeries, shortDay } from './days';
import '../../styles/charts.css';

export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** A colour from the theme. */
  colour: string;
}

export interface DailyChartProps {
  id: string;
  title: string;
  /** YYYY-MM-DD, oldest first. */
  days: readonly string[];
  series: readonly ChartSeries[];
}

/** Also the plot's min-height in styles/charts.css, so nothing moves when it is drawn. */
const HEIGHT = 170;

export function DailyChart({ id, title, days, series }: DailyChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let gone = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
      ([{ default: UPlot }]) => {
        if (gone) return;
        // x: each day's local noon in seconds, so a bar sits on its day whatever the zone.
        const xs = days.map((d) => {
          const [y, m, day] = d.split('-').map(Number);
          return new Date(y!, m! - 1, day!, 12).getTime() / 1000;
        });
        const bars = UPlot.paths.bars!({ size: [0.7, 24], gap: 1 });
        chart = new UPlot(
          {
            width: el.clientWidth,
            height: HEIGHT,
            // The legend is the component's own (below), the same at every width.
            legend: { show: false },
            cursor: { drag: { x: false, y: false } },
            scales: {
              // Half a day either side: the first and last bars are whole.
              x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
              y: { range: (_u, _min, max) => [0, Math.max(4, max)] },
            },
            axes: [
              {
                space: 56,
                values: (_u, ticks) =>
                  ticks.map((t) =>
                    new Date(t * 1000).toLocaleDateString('en-GB', {
                      day: 'numeric',
                      month: 'short',
                    }),
                  ),
              },
              { size: 36, space: 30 },
            ],
            series: [
              {},
              // One series: bars. Several: lines, which do not hide each other.
              ...series.map((s) =>
                series.length === 1
                  ? {
                      label: s.label,
                      stroke: s.colour,
                      fill: `${s.colour}cc`,
                      width: 0,
                      paths: bars,
                    }
                  : { label: s.label, stroke: s.colour, width: 2, points: { size: 4 } },
              ),
            ],
          },
          [xs, ...series.map((s) => [...s.values])],
          el,
        );
        observer = new ResizeObserver(() =>
          chart?.setSize({ width: el.clientWidth, height: HEIGHT }),
        );
        observer.observe(el);
        setDrawn(true);
      },
      (err: unknown) => console.warn('chart could not load', err),
    );
    return () => {
      gone = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days, series]);

  return (
    <figure className="card chart" aria-labelledby={`${id}-title`} data-testid={`chart-${id}`}>
      <figcaption id={`${id}-title`} className="chart__title">
        {title}
      </figcaption>
      {series.map((s) => (
        <p key={s.label} className="chart__summary">
          {describeSeries(s.label, days, s.values)}
        </p>
      ))}
      {series.length > 1 && (
        <ul className="chart__legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.label}>
              <span className="chart__swatch" style={{ background: s.colour }} />
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <div
        ref={box}
        className="chart__plot"
        aria-hidden="true"
        data-drawn={drawn ? '' : undefined}
      />
      <details className="chart__table">
        <summary>Show as table</summary>
        <table>
          <caption className="visually-hidden">{title}, by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d}>
                <th scope="row">{shortDay(d)}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
