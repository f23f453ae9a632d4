/**
 * The onboarding setup (spec section 2, "Onboarding setup"): 4 steps with a progress bar, shown
 * instead of any signed-in screen until the person completes it (spec section 6). Completing
 * uploads the chosen photo (PUT /api/profile/photo), then posts /api/user/complete-onboarding;
 * the answer replaces the session's person, which lifts the gate and shows the screen they came
 * for, with no hard reload (docs/decisions.md).
 */
import { displayName, type SelfUser as SelfUserT } from '@pingme/shared';
import { useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api';
import { completeOnboarding, sendPhoto } from '../../writes/profile';
import { rememberUser } from '../../session';
import { toast } from '../../stores';
import { Button } from '../Button';
import { markSetupCompleted } from './completed';
import { FriendSuggestionsStep } from './FriendSuggestionsStep';
import { LocationStep } from './LocationStep';
import { PhotoBioStep } from './PhotoBioStep';
import { SetupHeader } from './SetupHeader';
import {
  SETUP_STEPS,
  canContinue,
  canSkip,
  completeOnboardingBody,
  type SetupStep,
} from './setup-rules';
import { useHandleCheck } from './useHandleCheck';
import { UsernameStep } from './UsernameStep';
import '../../styles/setup.css';

const STEP_TEXT: Record<SetupStep, { title: string; lead: string }> = {
  1: { title: 'Choose your username', lead: 'This is how friends find and mention you.' },
  2: { title: 'Add a photo and bio', lead: 'Help your friends recognise you at a glance.' },
  3: { title: 'Where are you based?', lead: 'Share your city so friends know where you are.' },
  4: { title: 'Find your friends', lead: 'People you may know on PingMe. Add a few to start.' },
};

export function SetupFlow({ user }: { user: SelfUserT }) {
  const [step, setStep] = useState<SetupStep>(1);
  const [handle, setHandle] = useState(user.handle ?? '');
  const [bio, setBio] = useState(user.bio ?? '');
  const [location, setLocation] = useState(user.location ?? '');
  const [photo, setPhoto] = useState<Blob | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const check = useHandleCheck(handle);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // Keyboard and screen-reader focus follows the step.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);

  const ready = canContinue(step, handle, check.status);
  const go = (next: number) => setStep(Math.min(Math.max(next, 1), SETUP_STEPS) as SetupStep);

  const complete = async () => {
    if (handle.length < 3) {
      toast({
        title: 'Username Required',
        description: 'Please go back and enter a valid username.',
        variant: 'destructive',
      });
      return;
    }
    setSubmitting(true);
    try {
      // The photo is a file of its own route; once it is stored a retry does not send it again.
      if (photo) {
        await sendPhoto(photo);
        setPhoto(null);
      }
      // completeOnboarding marks the guided tour as due first (tour-rules.ts).
      const updated = await completeOnboarding(
        user,
        completeOnboardingBody({ handle, bio, location }),
      );
      markSetupCompleted(updated.id);
      await rememberUser(updated);
    } catch (err) {
      setSubmitting(false);
      toast({
        title: 'Error',
        description: `Failed to complete setup: ${errorMessage(err)}`,
        variant: 'destructive',
      });
      if (err instanceof ApiError && err.code === 'handle_taken') {
        go(1);
        check.retry();
      }
    }
  };

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!ready || submitting) return;
    if (step === SETUP_STEPS) void complete();
    else go(step + 1);
  };

  return (
    <div className="setup">
      <SetupHeader name={displayName(user)} step={step} />
      <form className="card setup__card" onSubmit={onSubmit} aria-labelledby="setup-step-title">
        <h2 id="setup-step-title" className="setup__title" ref={heading} tabIndex={-1}>
          {STEP_TEXT[step].title}
        </h2>
        <p className="setup__lead">{STEP_TEXT[step].lead}</p>
        {step === 1 && (
          <UsernameStep
            handle={handle}
            onHandleChange={setHandle}
            status={check.status}
            suggestions={check.suggestions}
            onRetry={check.retry}
          />
        )}
        {step === 2 && (
          <PhotoBioStep
            user={user}
            photo={photo}
            onPhotoChange={setPhoto}
            bio={bio}
            onBioChange={setBio}
          />
        )}
        {step === 3 && <LocationStep location={location} onLocationChange={setLocation} />}
        {step === 4 && <FriendSuggestionsStep />}

        <div className="setup__actions">
          {step > 1 && (
            <Button variant="ghost" onClick={() => go(step - 1)} disabled={submitting}>
              Back
            </Button>
          )}
          <Button type="submit" className="setup__next" disabled={!ready} loading={submitting}>
            {step === SETUP_STEPS ? 'Complete Setup' : 'Next'}
          </Button>
          {canSkip(step) && (
            <Button variant="link" className="setup__skip" onClick={() => go(SETUP_STEPS)}>
              Skip for now
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
