/** 'Report' on a received ping card: the report dialog for that ping (POST /api/reports {pingId}). */
import { useState } from 'react';
import { ReportDialog } from '../../dialogs/ReportDialog';
import '../../styles/safety.css';

export function ReportPingButton({ pingId, name }: { pingId: string; name: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="sf-ping-report"
        aria-label={`Report this ping from ${name}`}
        title="Report this ping"
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <ReportDialog open={open} onOpenChange={setOpen} name={name} pingId={pingId} />
    </>
  );
}
