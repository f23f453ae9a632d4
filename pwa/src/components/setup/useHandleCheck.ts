/**
 * The username availability check of the setup (spec section 5): GET /api/username/check/{handle}
 * after a 500 ms pause once the handle has 3 or more characters. An answer for an older handle
 * is ignored; a failed call says so and can be retried.
 */
import { DELAYS_MS, UsernameCheckResponse } from '@pingme/shared';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';
import { shouldCheckHandle, type HandleStatus } from './setup-rules';

interface CheckResult {
  handle: string;
  status: Exclude<HandleStatus, 'short' | 'checking'>;
  suggestions: string[];
}

export interface HandleCheck {
  status: HandleStatus;
  suggestions: string[];
  retry(): void;
}

export function useHandleCheck(handle: string): HandleCheck {
  const [result, setResult] = useState<CheckResult | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!shouldCheckHandle(handle)) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await api.get(`/api/username/check/${encodeURIComponent(handle)}`, {
          schema: UsernameCheckResponse,
          signal: controller.signal,
        });
        setResult({
          handle,
          status: answer.available ? 'available' : 'taken',
          suggestions: answer.suggestions,
        });
      } catch {
        if (!controller.signal.aborted) setResult({ handle, status: 'error', suggestions: [] });
      }
    }, DELAYS_MS.usernameCheckPause);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [handle, attempt]);

  const retry = useCallback(() => {
    setResult(null);
    setAttempt((n) => n + 1);
  }, []);

  if (!shouldCheckHandle(handle)) return { status: 'short', suggestions: [], retry };
  if (!result || result.handle !== handle) return { status: 'checking', suggestions: [], retry };
  return { status: result.status, suggestions: result.suggestions, retry };
}
