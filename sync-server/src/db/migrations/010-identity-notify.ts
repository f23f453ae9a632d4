import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect';

/**
 * PostgreSQL only: every node keeps the sessions and people it has read in memory
 * (db/session-cache.ts), so each must hear of a change to them, whichever node or tool made it.
 * A trigger on `users` and `sessions` sends one notice per changed row on the channel
 * `pingme_identity` (realtime/bus.ts listens): `u:<person id>` for a person or one of their
 * sessions (a session id is half a credential, and any role that may connect may LISTEN), and `*`
 * for a session nobody is signed in to or when either table is emptied. It fires on updates and deletions (a deleted person's sessions go with
 * them, and a cascade fires it too); a new row changes nothing anyone has cached. The notice is
 * sent when the write commits, and never for one rolled back. SQLite: nothing (one process; the
 * file's `data_version` tells it of other writers).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create function pingme_identity_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    perform pg_notify('pingme_identity', '*');
  elsif tg_table_name = 'users' then
    perform pg_notify('pingme_identity', 'u:' || old.id);
  elsif old.user_id is not null then
    perform pg_notify('pingme_identity', 'u:' || old.user_id);
  else
    perform pg_notify('pingme_identity', '*');
  end if;
  return null;
end
$$`.execute(db);
  for (const table of ['users', 'sessions']) {
    await sql`create trigger ${sql.id(`${table}_identity_changed`)} after update or delete on ${sql.table(table)} for each row execute function pingme_identity_changed()`.execute(
      db,
    );
    await sql`create trigger ${sql.id(`${table}_identity_emptied`)} after truncate on ${sql.table(table)} for each statement execute function pingme_identity_changed()`.execute(
      db,
    );
  }
}
