import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../db';
import { idleEngine, installSyncEngine } from './engine';
import { localWrite } from './local-write';
import { numbered } from './testing';
import { base64UrlToBytes } from './push-subscription';
import { confirmSignOut, unsentChangesMessage } from './sign-out';

beforeEach(async () => {
  await Promise.all(db.tables.map((t) => t.clear()));
  installSyncEngine(idleEngine);
});

describe('sign-out with writes waiting', () => {
  it('flushes first and signs out without asking when everything was sent', async () => {
    await localWrite({ mutation: 'ping.sendCustom', args: numbered(0) });
    const flushOutbox = vi.fn(async () => {
      await db.outbox.clear();
    });
    installSyncEngine({ ...idleEngine, flushOutbox });
    const confirm = vi.fn(() => false);
    expect(await confirmSignOut(confirm)).toBe(true);
    expect(flushOutbox).toHaveBeenCalledWith('sign-out');
    expect(confirm).not.toHaveBeenCalled();
  });

  it('asks when writes still wait after the flush, and follows the answer', async () => {
    for (let i = 0; i < 3; i++) {
      await localWrite({ mutation: 'ping.sendCustom', args: numbered(i) });
    }
    const confirm = vi.fn(() => false);
    expect(await confirmSignOut(confirm)).toBe(false);
    expect(confirm).toHaveBeenCalledWith('3 changes have not been sent yet. Sign out anyway?');
    expect(await confirmSignOut(() => true)).toBe(true);
    expect(unsentChangesMessage(1)).toBe('1 change has not been sent yet. Sign out anyway?');
  });
});

describe('push subscription', () => {
  it('decodes the base64url VAPID key into bytes', () => {
    expect([...base64UrlToBytes('AQIDBA')]).toEqual([1, 2, 3, 4]);
    expect([...base64UrlToBytes('-_8')]).toEqual([251, 255]);
  });
});
