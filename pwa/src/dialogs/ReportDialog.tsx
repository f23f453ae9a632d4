/**
 * Report a person (or one of their pings): a reason (spam, harassment, inappropriate, other) and
 * optional details (≤ 500), report.create, then 'Report sent. Thank you.'
 */
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '@pingme/shared';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../api';
import { toast } from '../stores';
import { sendReport } from '../writes/safety';
import { Dialog, DialogActions } from '../components/Dialog';

const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate',
  other: 'Other',
};

export interface ReportDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  name: string;
  userId?: string;
  pingId?: string;
}

export function ReportDialog({ open, onOpenChange, name, userId, pingId }: ReportDialogProps) {
  const ids = useId();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);

  const change = (o: boolean) => {
    if (sending) return;
    onOpenChange(o);
    if (!o) {
      setReason('');
      setDetails('');
      setError(undefined);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason) return setError('Choose a reason: spam, harassment, inappropriate or other');
    if (details.length > REPORT_DETAILS_MAX) {
      return setError(`Details must be at most ${REPORT_DETAILS_MAX} characters`);
    }
    setError(undefined);
    setSending(true);
    try {
      await sendReport({
        ...(userId ? { userId } : {}),
        ...(pingId ? { pingId } : {}),
        reason,
        details,
      });
      setSending(false);
      change(false);
      toast({ title: 'Report sent. Thank you.', variant: 'success' });
    } catch (err) {
      setSending(false);
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={change}
      title={pingId ? 'Report this ping' : `Report ${name}`}
      description="Reports are private: only the PingMe team sees them."
    >
      <form className="sf-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <fieldset className="sf-reasons">
          <legend className="field__label">Reason</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r} className="sf-reason">
              <input
                type="radio"
                name={`${ids}-reason`}
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
              />
              {REASON_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-details`}>
            Details (optional)
          </label>
          <textarea
            id={`${ids}-details`}
            className="input sf-textarea"
            rows={3}
            maxLength={REPORT_DETAILS_MAX}
            value={details}
            aria-describedby={`${ids}-count`}
            onChange={(e) => setDetails(e.target.value)}
          />
          <p id={`${ids}-count`} className="field__hint">
            {details.length}/{REPORT_DETAILS_MAX}
          </p>
        </div>
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
        <DialogActions type="submit" variant="danger" loading={sending}>
          Send report
        </DialogActions>
      </form>
    </Dialog>
  );
}
