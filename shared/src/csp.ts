/**
 * The app runs under a Content-Security-Policy without 'unsafe-eval' (docs/security.md,
 * "Headers"). zod compiles object parsers with `new Function` when it may, and probes for that
 * once with `Function('')`; under the policy the probe is blocked and reported as a
 * `securitypolicyviolation` even though zod catches it. Outside Node (pages and service workers)
 * zod is therefore told not to try; the server keeps the faster compiled parsers.
 *
 * zod decides when its first object schema is built, so this must run before any schema module:
 * import it first in each browser entry (`import '@pingme/shared/csp';` at the top of the PWA's
 * main.tsx and sw.ts). Re-exporting it from the index would not do: bundlers may evaluate the
 * schema modules before it.
 */
import { z } from 'zod';

const runtime = globalThis as { process?: { versions?: { node?: string } } };

/** True in browsers (and workers): zod parses without generated code. */
export const ZOD_JITLESS = !runtime.process?.versions?.node;
if (ZOD_JITLESS) z.config({ jitless: true });
