/**
 * The device's data belongs to one person: the rows the pull brought (their `self` user row says
 * whose) and the writes waiting in the outbox (each names its author, which covers a person who
 * wrote before their first pull ever finished). When someone else signs in on this device (the
 * first person's session expired or was ended elsewhere, so they never signed out here), none
 * of it is theirs to see, and the waiting writes must never go out under their session: it is
 * all forgotten, as signing out would have done. The same person signing in again keeps it all,
 * and their waiting writes go out.
 */
import { clearPersonalData, db, getMeta, setMeta } from '../db';

/** Forgets another person's data before `userId` syncs; answers whether anything was forgotten. */
export async function claimDeviceData(userId: string): Promise<boolean> {
  const owner = await db.users.where('relation').equals('self').first();
  // Two counts of index ranges: notEqual() walked a cursor over every waiting write of this
  // person (100 ms with 1,000 waiting), and each drain and each pull starts here.
  const othersWrite =
    (await db.outbox.where('userId').below(userId).count()) +
      (await db.outbox.where('userId').above(userId).count()) >
    0;
  if ((!owner || owner.id === userId) && !othersWrite) return false;
  const signedIn = await getMeta('currentUser');
  await clearPersonalData();
  if (signedIn?.id === userId) await setMeta('currentUser', signedIn);
  console.warn('this device held another person’s data and writes: forgotten');
  return true;
}
