import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pingme-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('VAPID keys', () => {
  it('are generated on first start, kept in secrets.json, and the same on the next start', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(Buffer.from(first.vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.vapid.privateKey, 'base64url')).toHaveLength(32);
    expect(first.vapid.subject).toBe('mailto:admin@pingme.local');
    const file = path.join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).vapid).toEqual(first.vapid);
  });

  it('are added to a secrets file written before they existed, keeping its session secret', () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ sessionSecret: 's'.repeat(43) }), { mode: 0o600 });
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.sessionKeys).toEqual(['s'.repeat(43)]);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored).toMatchObject({
      sessionSecret: 's'.repeat(43),
      vapidPublicKey: config.vapid.publicKey,
      vapidPrivateKey: config.vapid.privateKey,
    });
  });

  it('come from the environment when set (both or neither)', () => {
    const dir = tempDir();
    const config = loadConfig({
      DATA_DIR: dir,
      VAPID_PUBLIC_KEY: 'pub',
      VAPID_PRIVATE_KEY: 'priv',
      VAPID_SUBJECT: 'https://pingme.example',
    });
    expect(config.vapid).toEqual({
      publicKey: 'pub',
      privateKey: 'priv',
      subject: 'https://pingme.example',
    });
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: 'pub' })).toThrow(
      /set together or not at all/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_SUBJECT: 'admin@example.com' })).toThrow(
      /VAPID_SUBJECT/,
    );
  });
});

describe('ALLOWED_ORIGINS', () => {
  it('takes comma-separated origins, lower-cased, and refuses anything else at start', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).allowedOrigins).toEqual([]);
    expect(
      loadConfig({
        DATA_DIR: dir,
        ALLOWED_ORIGINS: 'https://M.PingMe.example/, http://10.0.0.2:8080',
      }).allowedOrigins,
    ).toEqual(['https://m.pingme.example', 'http://10.0.0.2:8080']);
    for (const bad of ['pingme.example', 'https://pingme.example/app', 'ftp://pingme.example']) {
      expect(() => loadConfig({ DATA_DIR: dir, ALLOWED_ORIGINS: bad })).toThrow(/ALLOWED_ORIGINS/);
    }
  });
});

describe('DATABASE_WRITE_TRANSACTIONS', () => {
  it('is 1 unless set, and never more than the pool less one, nor less than one', () => {
    const dir = tempDir();
    const writes = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: dir, ...env }).databaseWriteTransactions;
    expect(writes({})).toBe(1);
    expect(writes({ DATABASE_WRITE_TRANSACTIONS: '4' })).toBe(4);
    expect(writes({ DATABASE_WRITE_TRANSACTIONS: '8', DATABASE_POOL_SIZE: '4' })).toBe(3);
    expect(writes({ DATABASE_WRITE_TRANSACTIONS: '2', DATABASE_POOL_SIZE: '1' })).toBe(1);
    expect(() => writes({ DATABASE_WRITE_TRANSACTIONS: '0' })).toThrow(
      /DATABASE_WRITE_TRANSACTIONS/,
    );
  });
});
