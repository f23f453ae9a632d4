/**
 * Single-use, expiring tokens for password reset and e-mail verification; only hashes are stored.
 * Every link sent stays usable until it expires or one of them is used (which ends the others):
 * a new request, perhaps a stranger's, never cancels the link the owner is about to open.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/connection';
import { consumeToken, findToken, insertToken, revokeTokens } from '../db/tokens';
import type { TokensTable } from '../db/schema';
import { AppError } from '../errors';

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function issueToken(
  db: Db,
  userId: string,
  kind: TokensTable['kind'],
  ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertToken(db, {
    id: randomUUID(),
    userId,
    kind,
    tokenHash: hash(token),
    expiresAt: Date.now() + ttlMs,
  });
  return token;
}

/** Uses a token once. Unknown or used: token_invalid; past its time: token_expired. */
export async function redeemToken(
  db: Db,
  kind: TokensTable['kind'],
  token: string,
): Promise<string> {
  const row = await findToken(db, kind, hash(token));
  const what = kind === 'reset' ? 'This password reset link' : 'This verification link';
  if (!row || row.usedAt)
    throw new AppError(400, 'token_invalid', `${what} is invalid or has already been used`);
  if (row.expiresAt < Date.now()) throw new AppError(400, 'token_expired', `${what} has expired`);
  if (!(await consumeToken(db, row.id)))
    throw new AppError(400, 'token_invalid', `${what} has already been used`);
  await revokeTokens(db, row.userId, kind);
  return row.userId;
}
