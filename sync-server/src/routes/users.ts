/**
 * Other people: a profile by id (full for self and friends, the public summary for everyone
 * else), search, and friend suggestions. Everything needs a session.
 */
import type Router from '@koa/router';
import {
  IdParams,
  SearchQuery,
  type ProfileResponse,
  type SuggestionResult,
  type UserSearchResult,
} from '@pingme/shared';
import type { AppDeps } from '../deps';
import { isBlockedEitherWay } from '../db/blocks';
import { countFriends } from '../db/friendships';
import {
  countPings,
  relationWith,
  relationsWith,
  searchPeople,
  suggestPeople,
  type PersonRow,
  type RelationInfo,
} from '../db/people';
import { findUserById, toProfileFields, toSummary } from '../db/users';
import { notFound } from '../errors';
import { currentUser, requireUser } from '../middleware/auth';
import { validated } from '../middleware/validate';
import { buckets, throttle } from '../services/rate-limits';

export const SEARCH_LIMIT = 20;
export const SUGGESTION_LIMIT = 10;

function toSearchResult(p: PersonRow, rel: RelationInfo): UserSearchResult {
  return {
    id: p.id,
    firstName: p.firstName,
    lastName: p.lastName,
    profileImageUrl: p.profileImageUrl,
    handle: p.handle,
    tagline: p.tagline,
    relation: rel.relation,
    requestId: rel.requestId,
  };
}

export function usersRoutes(router: Router, { db, config }: AppDeps): void {
  router.get(
    '/api/users/search',
    requireUser(db),
    validated({ query: SearchQuery }, async (ctx, { query }) => {
      const me = currentUser(ctx);
      await throttle(
        db,
        buckets.search(me.id),
        config.rateLimits.searchPerUser,
        'Too many searches',
      );
      const people = await searchPeople(db, me.id, query.q, SEARCH_LIMIT);
      const relations = await relationsWith(
        db,
        me.id,
        people.map((p) => p.id),
      );
      ctx.body = people.map((p) =>
        toSearchResult(p, relations.get(p.id) ?? { relation: 'none', requestId: null }),
      ) satisfies UserSearchResult[];
    }),
  );

  router.get('/api/users/suggestions', requireUser(db), async (ctx) => {
    const me = currentUser(ctx);
    const people = await suggestPeople(db, me.id, SUGGESTION_LIMIT);
    ctx.body = people.map((p) => ({
      ...toSearchResult(p, { relation: 'none', requestId: null }),
      mutualFriends: p.mutualFriends,
    })) satisfies SuggestionResult[];
  });

  router.get(
    '/api/users/:id/profile',
    requireUser(db),
    validated({ params: IdParams }, async (ctx, { params }) => {
      const me = currentUser(ctx);
      const user = params.id === me.id ? me : await findUserById(db, params.id);
      // A block, either way, makes the two unknown to each other (docs/security.md).
      if (!user || (user.id !== me.id && (await isBlockedEitherWay(db, me.id, user.id))))
        throw notFound('User not found');
      const rel = await relationWith(db, me.id, user.id);
      const friendsCount = await countFriends(db, user.id);
      const pingsCount = await countPings(db, user.id);
      let body: ProfileResponse;
      if (rel.relation === 'self' || rel.relation === 'friends') {
        body = {
          ...toProfileFields(user),
          full: true,
          isAdmin: user.isAdmin === 1,
          areFriends: rel.relation === 'friends',
          relation: rel.relation,
          friendsCount,
          pingsCount,
        };
      } else {
        // Built field by field: nothing beyond name, avatar and counts reaches a non-friend.
        body = {
          ...toSummary(user),
          full: false,
          areFriends: false,
          relation: rel.relation,
          requestId: rel.requestId,
          friendsCount,
          pingsCount,
        };
      }
      ctx.body = body;
    }),
  );
}
