/**
 * DATABASE_URL through PostgreSQL's Unix socket (docs/deploy.md, "Settings that matter": a node
 * on the database's own machine): the form the docs give is accepted by the configuration, and
 * the pool, the writes and the change bus's LISTEN connection all reach the server over the
 * socket, not over TCP. The run's throw-away cluster (test/postgres.ts) listens on a socket in its
 * own directory, which the server itself names.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config';
import { PostgresBus, type Hint } from '../realtime/bus';
import { createDatabase, dropDatabase, overUnixSocket } from '../../test/postgres';
import { personRow } from '../../test/rows';
import { openDatabase, type OpenedDb } from './connection';

let tcpUrl: string;
let socketUrl: string;
let opened: OpenedDb;

beforeAll(async () => {
  tcpUrl = await createDatabase(inject('postgres').adminUrl);
  const tcp = await openDatabase(tcpUrl, { poolSize: 1 });
  try {
    // Where this server listens: its first socket directory (the throw-away cluster's own).
    const { rows } = await sql<{
      dirs: string;
    }>`select current_setting('unix_socket_directories') as dirs`.execute(tcp.db);
    const dir = rows[0]!.dirs.split(',')[0]!.trim();
    socketUrl = overUnixSocket(tcpUrl, dir);
  } finally {
    await tcp.close();
  }
  opened = await openDatabase(loadConfig({ DATABASE_URL: socketUrl }).databaseUrl!, {
    poolSize: 2,
  });
});
afterAll(async () => {
  await opened?.close();
  await dropDatabase(tcpUrl);
});

/** The client address the server sees for a connection of `db`: null over a Unix socket. */
async function clientAddress(db: OpenedDb['db']): Promise<string | null> {
  const { rows } = await sql<{
    addr: string | null;
  }>`select host(inet_client_addr()) as addr`.execute(db);
  return rows[0]!.addr;
}

describe('DATABASE_URL through the Unix socket', () => {
  it('connects over the socket, where the same URL without it connects over TCP', async () => {
    expect(socketUrl).toMatch(/^postgres(ql)?:\/\/.*[?&]host=%2F/);
    expect(await clientAddress(opened.db)).toBeNull();
    const tcp = await openDatabase(tcpUrl, { poolSize: 1 });
    try {
      expect(await clientAddress(tcp.db)).toBe('127.0.0.1');
    } finally {
      await tcp.close();
    }
  });

  it('writes and reads back through it, inside a transaction too', async () => {
    await opened.db.transaction().execute(async (trx) => {
      expect(await clientAddress(trx)).toBeNull();
      await trx.insertInto('users').values(personRow('socket-user')).execute();
    });
    const row = await opened.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', '=', 'socket-user')
      .executeTakeFirst();
    expect(row).toEqual({ id: 'socket-user', email: 'socket-user@example.test' });
  });

  it('carries the change bus: its LISTEN connection is on the socket and hears a hint', async () => {
    const bus = new PostgresBus(socketUrl, opened.db);
    try {
      await bus.start();
      const { rows } = await sql<{
        addr: string | null;
        port: number | null;
      }>`select client_addr::text as addr, client_port as port from pg_stat_activity where pid = ${bus.backendPid!}`.execute(
        opened.db,
      );
      // Over a Unix socket the server knows no client address, and the port is -1.
      expect(rows).toEqual([{ addr: null, port: -1 }]);
      const heard = new Promise<Hint[]>((resolve) => bus.onHints(resolve));
      await bus.publish([{ kind: 'subscriptions', userId: 'socket-user' }]);
      expect(await heard).toEqual([{ kind: 'subscriptions', userId: 'socket-user' }]);
    } finally {
      await bus.close();
    }
  });
});
