/**
 * Invite (/invite/{code}): check the code (GET /api/invites/{code}), then accept it
 * (invite.use), which makes the inviter and you friends. routes/invite.tsx loads this screen on
 * first visit.
 */
import { DELAYS_MS, InviteCheckResponse, InviteCode, displayName } from '@pingme/shared';
import { useNavigate, getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, NetworkError, api, errorMessage } from '../api';
import { Avatar } from '../components/Avatar';
import { Button } from '../components/Button';
import { ButtonLink } from '../components/ButtonLink';
import { StatusCard } from '../components/StatusCard';
import { AlertIcon, MailIcon } from '../components/icons';
import { toast } from '../stores';
import { redeemInvite } from '../writes/friends';

/** This screen's route (routes/), read without importing it: the route file loads this screen. */
const route = getRouteApi('/invite/$code');

type Inviter = Extract<InviteCheckResponse, { valid: true }>['user'];

type InviteState =
  | { kind: 'checking' }
  | { kind: 'missing' }
  | { kind: 'invalid' }
  | { kind: 'offline' }
  | { kind: 'valid'; inviter: Inviter; alreadyFriends: boolean; isOwnInvite: boolean }
  | { kind: 'success'; name: string };

export function InviteWithCode() {
  const { code } = route.useParams();
  return <InviteScreen code={code} />;
}

/** /invite without a code: the 'missing' state. */
export function InviteMissing() {
  return <InviteScreen code="" />;
}

const goHome = (
  <ButtonLink to="/" variant="secondary">
    Go Home
  </ButtonLink>
);

function InviteScreen({ code }: { code: string }) {
  const navigate = useNavigate();
  const validCode = InviteCode.safeParse(code);
  const [state, setState] = useState<InviteState>(
    validCode.success ? { kind: 'checking' } : { kind: 'missing' },
  );
  const [accepting, setAccepting] = useState(false);
  const path = `/api/invites/${encodeURIComponent(validCode.data ?? '')}`;

  const check = useCallback(async () => {
    setState({ kind: 'checking' });
    try {
      const answer = await api.get(path, { schema: InviteCheckResponse });
      setState(
        answer.valid
          ? {
              kind: 'valid',
              inviter: answer.user,
              alreadyFriends: answer.alreadyFriends,
              isOwnInvite: answer.isOwnInvite,
            }
          : { kind: 'invalid' },
      );
    } catch (err) {
      if (err instanceof NetworkError) setState({ kind: 'offline' });
      else if (!(err instanceof ApiError && err.status === 401)) setState({ kind: 'invalid' });
    }
  }, [path]);

  useEffect(() => {
    if (validCode.success) void check();
  }, [check, validCode.success]);

  useEffect(() => {
    if (state.kind !== 'success') return;
    const timer = setTimeout(
      () => void navigate({ to: '/', replace: true }),
      DELAYS_MS.inviteSuccessRedirect,
    );
    return () => clearTimeout(timer);
  }, [state.kind, navigate]);

  const accept = async () => {
    setAccepting(true);
    try {
      const answer = await redeemInvite(validCode.data ?? '');
      const name = displayName(answer.friend);
      toast({
        title: answer.alreadyFriends
          ? `You're already friends with ${name}`
          : `You're now friends with ${name}!`,
        variant: 'success',
      });
      setState({ kind: 'success', name });
    } catch (err) {
      const message =
        err instanceof ApiError && err.body?.error
          ? err.body.error
          : err instanceof NetworkError
            ? errorMessage(err)
            : 'Failed to accept invitation';
      toast({ title: 'Error', description: message, variant: 'destructive' });
      setAccepting(false);
    }
  };

  switch (state.kind) {
    case 'checking':
      return (
        <StatusCard tone="busy" title="Checking Invite">
          <p>Making sure this invitation is still good…</p>
        </StatusCard>
      );
    case 'missing':
      return (
        <StatusCard tone="error" title="Invalid Invite" actions={goHome}>
          <p>This invite link is missing or invalid.</p>
        </StatusCard>
      );
    case 'invalid':
      return (
        <StatusCard tone="warning" title="Invite Expired" actions={goHome}>
          <p>This invitation is no longer valid or has expired.</p>
        </StatusCard>
      );
    case 'offline':
      return (
        <StatusCard
          tone="warning"
          icon={<AlertIcon />}
          title="You’re offline"
          actions={
            <>
              <Button onClick={() => void check()}>Try Again</Button>
              {goHome}
            </>
          }
        >
          <p>Checking an invite needs a connection. Try again when you’re back online.</p>
        </StatusCard>
      );
    case 'success':
      return (
        <StatusCard tone="success" title="Success!">
          <p>You and {state.name} are now friends. Taking you home…</p>
        </StatusCard>
      );
    case 'valid': {
      const name = displayName(state.inviter);
      if (state.isOwnInvite) {
        return (
          <StatusCard
            tone="info"
            icon={<MailIcon />}
            title="This is your invite link"
            actions={goHome}
          >
            <p>Share it with friends: opening it makes you friends on PingMe.</p>
          </StatusCard>
        );
      }
      return (
        <section className="status-card invite-card" aria-labelledby="invite-title">
          <Avatar user={state.inviter} size="xl" />
          <h1 id="invite-title" className="status-card__title">
            {name} invited you
          </h1>
          <p className="status-card__body">
            {state.alreadyFriends
              ? `You and ${name} are already friends on PingMe.`
              : `Connect with ${name} on PingMe to start sending each other pings.`}
          </p>
          <div className="status-card__actions">
            <Button loading={accepting} onClick={() => void accept()}>
              Accept Invitation
            </Button>
            <ButtonLink to="/" variant="secondary">
              Maybe Later
            </ButtonLink>
          </div>
        </section>
      );
    }
  }
}
