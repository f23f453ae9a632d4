/**
 * PingMe runs on Node 22 and 24. On an older Node, `npm start` and `npm test` stop at once with a
 * sentence that says what to install (scripts/check-node.cjs runs first in both).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CHECK = path.join(ROOT, 'scripts/check-node.cjs');
const { problem } = createRequire(import.meta.url)(CHECK) as {
  problem(version: string, command?: string): string | null;
};

describe('the Node.js version check', () => {
  it('refuses Node 20 and 18 with a sentence that says what to install', () => {
    for (const version of ['20.20.2', '18.20.8']) {
      const message = problem(version, 'start');
      expect(message).toContain('PingMe needs Node.js 22 or 24');
      expect(message).toContain(`this is Node ${version}`);
      expect(message).toContain('scripts/with-node.sh 24 npm start');
    }
    expect(problem('20.20.2', 'test')).toContain('scripts/with-node.sh 24 npm test');
  });

  it('accepts Node 22, 24 and later', () => {
    for (const version of ['22.0.0', '22.23.3', '24.21.0', '26.1.0'])
      expect(problem(version)).toBeNull();
  });

  it('passes on the Node running this test, which the project supports', () => {
    const run = spawnSync(process.execPath, [CHECK], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it('runs first in npm start and npm test, and engines says the same', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      engines: { node: string };
    };
    expect(pkg.scripts.start).toMatch(/^node scripts\/check-node\.cjs && /);
    expect(pkg.scripts.test).toMatch(/^node scripts\/check-node\.cjs && /);
    expect(pkg.engines.node).toBe('>=22');
  });
});
