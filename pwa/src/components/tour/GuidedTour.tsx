/**
 * The guided tour on Home (spec section 4): 5 steps (welcome, send quick pings, build your friend
 * network, feel the energy, all set) in an accessible dialog. Next advances and saves the step,
 * Back goes down a step, finishing or skipping (the close icon, Escape, or 'Skip tour' on the
 * first step) saves the tour as completed.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { Button, buttonClass } from '../Button';
import { cx } from '../cx';
import { DialogFrame } from '../Dialog';
import { TOUR_STEPS } from './tour-rules';
import { TOUR_CONTENT } from './tour-steps';
import '../../styles/home.css';

export interface GuidedTourProps {
  startStep: number;
  onAdvance(step: number): void;
  onFinish(): void;
}

/** Mount it only while open (its step starts at `startStep` each time). */
export function GuidedTour({ startStep, onAdvance, onFinish }: GuidedTourProps) {
  const [step, setStep] = useState(startStep);
  const content = TOUR_CONTENT[step]!;
  const last = step === TOUR_STEPS - 1;
  const primary = useRef<HTMLButtonElement>(null);

  const next = () => {
    if (last) return onFinish();
    onAdvance(step + 1);
    setStep(step + 1);
  };

  return (
    <DialogFrame
      open
      onOpenChange={(open) => !open && onFinish()}
      className="dialog tour"
      aria-describedby="tour-body"
      onOpenAutoFocus={(e) => {
        e.preventDefault();
        primary.current?.focus();
      }}
      closeLabel="Close tour"
    >
      <p className="tour__count">
        Step {step + 1} of {TOUR_STEPS}
      </p>
      <span className="tour__art" aria-hidden="true">
        {content.emoji}
      </span>
      <RadixDialog.Title className="tour__title">{content.title}</RadixDialog.Title>
      <RadixDialog.Description id="tour-body" className="tour__body">
        {content.body}
      </RadixDialog.Description>
      <ol className="tour__dots" aria-hidden="true">
        {TOUR_CONTENT.map((s, i) => (
          <li key={s.title} className={cx('tour__dot', i === step && 'is-current')} />
        ))}
      </ol>
      <div className="tour__actions">
        {step === 0 ? (
          <Button variant="ghost" onClick={onFinish}>
            Skip tour
          </Button>
        ) : (
          <Button variant="ghost" onClick={() => setStep(step - 1)}>
            Back
          </Button>
        )}
        <button type="button" ref={primary} className={buttonClass()} onClick={next}>
          {last ? 'Get Started' : 'Next'}
        </button>
      </div>
    </DialogFrame>
  );
}
