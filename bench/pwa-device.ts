/**
 * `npm run bench:device`: the PWA on a device (issue 8, items 5 and 6), in Debian's Chromium
 * against the real sync server on loopback (bench/device/index.ts says what each part measures).
 *
 *   npm run bench:device                        builds pwa/ privately, then everything
 *   npm run bench:device -- --dist DIR          measures an existing build (no build)
 *   npm run bench:device -- --only render,send  some of: render, send, drain, slow-link, reconnect
 *   npm run bench:device -- --runs 5 --sends 30 --writes 1000 --pings 5000 --friends 50
 *   npm run bench:device -- --slow-writes 200 --slow-delay 200 --outage 30000
 *   npm run bench:device -- --only drain --profile drain.cpuprofile   the page's CPU during D3
 *   npm run bench:device -- --only drain --trace drain.json           Chromium's trace of D3
 *
 * Prints one table (figure, value, target, pass/fail), writes the same figures and the raw
 * samples to bench/results/device-<stamp>.json, and exits 1 when a target is missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadAverage } from './lib/children';
import { table } from './lib/report';
import { DEFAULT_DEVICE_OPTIONS, DEVICE_PARTS, benchDevice, type DevicePart } from './device';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    dist: { type: 'string' },
    only: { type: 'string' },
    runs: { type: 'string' },
    sends: { type: 'string' },
    writes: { type: 'string' },
    pings: { type: 'string' },
    friends: { type: 'string' },
    'slow-writes': { type: 'string' },
    'slow-delay': { type: 'string' },
    outage: { type: 'string' },
    profile: { type: 'string' },
    trace: { type: 'string' },
  },
});
const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
const only = args.only
  ? (args.only.split(',').map((s) => s.trim()) as DevicePart[])
  : [...DEVICE_PARTS];
for (const p of only) if (!DEVICE_PARTS.includes(p)) throw new Error(`unknown part ${p}`);

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const loadStart = loadAverage();
console.log(`[device] load average ${loadStart} on ${os.cpus().length} CPUs`);
const d = DEFAULT_DEVICE_OPTIONS;
const result = await benchDevice({
  ...(args.dist ? { dist: args.dist } : {}),
  only,
  runs: num(args.runs, d.runs),
  sends: num(args.sends, d.sends),
  writes: num(args.writes, d.writes),
  pings: num(args.pings, d.pings),
  friends: num(args.friends, d.friends),
  slowWrites: num(args['slow-writes'], d.slowWrites),
  slowDelayMs: num(args['slow-delay'], d.slowDelayMs),
  outageMs: num(args.outage, d.outageMs),
  ...(args.profile ? { profile: path.resolve(args.profile) } : {}),
  ...(args.trace ? { trace: path.resolve(args.trace) } : {}),
});

console.log(`\n${table(result.figures)}\n`);
const dir = path.join(here, 'results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `device-${stamp}.json`);
writeFileSync(
  file,
  JSON.stringify(
    {
      stamp,
      loadAverage: { start: loadStart, end: loadAverage() },
      cpus: os.cpus().length,
      figures: result.figures,
      raw: result.raw,
    },
    null,
    2,
  ),
);
console.log(`[device] figures written to ${path.relative(process.cwd(), file)}`);
process.exit(result.figures.some((f) => f.pass === false) ? 1 : 0);
