/**
 * The admin's 'Open Reports' (GET /api/admin/reports?status=open), newest first, each with
 * 'Resolve' (report.resolve).
 */
import { AdminReport, displayName, relativeTime } from '@pingme/shared';
import { z } from 'zod';
import { api } from '../../api';
import { useApiData } from '../../hooks/useApiData';
import { useRowAction } from '../../hooks/useRowAction';
import { toast } from '../../stores';
import { resolveReport } from '../../writes/safety';
import { Button } from '../Button';
import '../../styles/safety.css';

const loadOpenReports = () =>
  api.get('/api/admin/reports?status=open', { schema: z.array(AdminReport) });

export function OpenReports() {
  const { state, reload: load, update } = useApiData(loadOpenReports);
  const { busy, run } = useRowAction();

  const resolve = (r: AdminReport) =>
    run(r.id, async () => {
      await resolveReport(r.id);
      toast({ title: 'Report resolved', variant: 'success' });
      update((reports) => reports.filter((x) => x.id !== r.id));
    });

  let body;
  if (state.kind === 'loading') {
    body = (
      <div className="card adm-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading reports…
      </div>
    );
  } else if (state.kind === 'error') {
    body = (
      <div className="card adm-state" role="alert">
        <p>Reports could not be loaded. {state.message}</p>
        <Button size="sm" variant="secondary" onClick={() => void load()}>
          Try again
        </Button>
      </div>
    );
  } else if (state.data.length === 0) {
    body = <div className="card adm-state">No open reports.</div>;
  } else {
    body = (
      <ul className="sf-reports">
        {state.data.map((r) => (
          <li key={r.id} className="card sf-report" data-testid="open-report">
            <div className="sf-report__head">
              <span className="sf-report__reason">{r.reason}</span>
              <strong>{displayName(r.user)}</strong>
              <span className="sf-report__meta">{r.user.email}</span>
            </div>
            <p className="sf-report__meta">
              Reported by {displayName(r.reporter)} ({r.reporter.email}) ·{' '}
              <time dateTime={r.createdAt}>{relativeTime(r.createdAt)}</time>
            </p>
            {r.ping && (
              <p className="sf-report__details">
                Ping: {r.ping.emoji ?? ''} {r.ping.text ?? r.ping.kind}
              </p>
            )}
            {r.details && <p className="sf-report__details">“{r.details}”</p>}
            <div>
              <Button
                size="sm"
                variant="secondary"
                loading={busy === r.id}
                aria-label={`Resolve the report about ${displayName(r.user)}`}
                onClick={() => void resolve(r)}
              >
                Resolve
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="adm-section" aria-labelledby="adm-reports">
      <h2 id="adm-reports" className="adm-section__title">
        Open Reports
      </h2>
      {body}
    </section>
  );
}
