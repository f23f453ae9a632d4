/**
 * 'Block' and 'Report' for another person (their profile, the friend profile). Block asks first,
 * POST /api/blocks, then goes to /friends; the pull brings the tombstones that end the
 * friendship on this device.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '../../api';
import { toast } from '../../stores';
import { syncEngine } from '../../sync/engine';
import { blockPerson } from '../../writes/safety';
import { Button } from '../Button';
import { ConfirmDialog } from '../form/ConfirmDialog';
import { ReportDialog } from '../../dialogs/ReportDialog';
import '../../styles/safety.css';

export function PersonSafetyActions({ userId, name }: { userId: string; name: string }) {
  const navigate = useNavigate();
  const [blockOpen, setBlockOpen] = useState(false);
  const [reportOpen, setReportOpen] = useState(false);
  const [blocking, setBlocking] = useState(false);

  const onBlock = async () => {
    setBlocking(true);
    try {
      await blockPerson(userId);
    } catch (err) {
      setBlocking(false);
      toast({ title: 'Error', description: errorMessage(err), variant: 'destructive' });
      return;
    }
    toast({ title: `${name} is blocked`, variant: 'success' });
    setBlockOpen(false);
    setBlocking(false);
    void pullSoon();
    await navigate({ to: '/friends' });
  };

  return (
    <div className="sf-person-actions" role="group" aria-label={`Safety: ${name}`}>
      <Button size="sm" variant="ghost" onClick={() => setReportOpen(true)}>
        Report
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="sf-danger-text"
        onClick={() => setBlockOpen(true)}
      >
        Block
      </Button>
      <ConfirmDialog
        open={blockOpen}
        onOpenChange={setBlockOpen}
        busy={blocking}
        title={`Block ${name}?`}
        description="Your friendship, requests and anchors with them end. They cannot find you, see your profile or ping you. They are not told. You can unblock them in Settings."
        confirmLabel="Block"
        onConfirm={() => void onBlock()}
      />
      <ReportDialog open={reportOpen} onOpenChange={setReportOpen} name={name} userId={userId} />
    </div>
  );
}

async function pullSoon(): Promise<void> {
  try {
    await syncEngine().pull('after-send');
  } catch (err) {
    console.warn('pull after block failed', err);
  }
}
