/**
 * `npm run make-admin -- <email> [--revoke]`: grants (or with --revoke removes) admin status for
 * the account with that e-mail, in the database of the configured DATA_DIR. Exit code 1 when no
 * account has that e-mail or the arguments are wrong.
 */
import { databaseLocation, loadConfig } from '../config';
import { setAdminByEmail } from '../db/admin';
import { openDatabase } from '../db/connection';
import { isAdminEmail } from '../services/accounts';

const USAGE = 'Usage: npm run make-admin -- <email> [--revoke]';

async function main(argv: string[]): Promise<number> {
  const revoke = argv.includes('--revoke');
  const rest = argv.filter((a) => a !== '--revoke');
  const unknownFlag = rest.find((a) => a.startsWith('-'));
  if (unknownFlag || rest.length !== 1) {
    console.error(unknownFlag ? `Unknown option: ${unknownFlag}\n${USAGE}` : USAGE);
    return 1;
  }
  const email = rest[0]!.trim().toLowerCase();
  const config = loadConfig();
  const database = await openDatabase(databaseLocation(config));
  try {
    const result = await setAdminByEmail(database.db, email, !revoke);
    if (!result) {
      console.error(
        `No account with the e-mail ${email} in ${config.databaseUrl ? 'the PostgreSQL database' : config.dbFile}.`,
      );
      return 1;
    }
    const who = `${email} (${result.user.id})`;
    if (revoke) {
      console.log(result.changed ? `Revoked admin from ${who}.` : `${who} was not an admin.`);
      if (isAdminEmail(config, email)) {
        console.log(
          'Note: this e-mail is listed in ADMIN_EMAILS, so signing in makes it an admin again. Remove it there too.',
        );
      }
    } else {
      console.log(result.changed ? `${who} is now an admin.` : `${who} was already an admin.`);
      console.log('The admin dashboard is at /admin once they are signed in.');
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
