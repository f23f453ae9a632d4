/**
 * Conditions on a row that links two people through two columns (a friendship's requester and
 * addressee, a ping's sender and receiver, a block's blocker and blocked…), when it does not
 * matter which person stands in which column.
 */
import type {
  Expression,
  ExpressionBuilder,
  OperandValueExpressionOrList,
  SqlBool,
  StringReference,
} from 'kysely';
import { checkedOnEachRow } from './chunks';

/** The two person columns of each table whose rows link two people. */
export const PARTY_COLUMNS = {
  friendships: ['requesterId', 'addresseeId'],
  pings: ['senderId', 'receiverId'],
  anchors: ['userId', 'friendId'],
  moods: ['userId', 'friendId'],
} as const;

export type TwoPersonTable = keyof typeof PARTY_COLUMNS;

/** A person's id (or, for `linksAnyOf`'s others, a list of ids) compared with a column of TB. */
type Person<DB, TB extends keyof DB> = OperandValueExpressionOrList<
  DB,
  TB,
  StringReference<DB, TB>
>;

/** `x = person or y = person`: the row links person to someone. */
export function involves<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  x: StringReference<DB, TB>,
  y: StringReference<DB, TB>,
  person: Person<DB, TB>,
): Expression<SqlBool> {
  return eb.or([eb(x, '=', person), eb(y, '=', person)]);
}

/** `involves` for a read by ids: checked on each row found (chunks.ts, checkedOnEachRow). */
export const involvesEach: typeof involves = (eb, x, y, person) =>
  checkedOnEachRow(eb, involves(eb, x, y, person));

/**
 * A condition on a row's two person columns x and y with two operands, whichever column each
 * stands in: `linksBoth` and `linksAnyOf`.
 */
type PairCondition = <DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  x: StringReference<DB, TB>,
  y: StringReference<DB, TB>,
  a: Person<DB, TB>,
  b: Person<DB, TB>,
) => Expression<SqlBool>;

/** `(x = a and y = b) or (x = b and y = a)`: the row links a and b, either way round. */
export const linksBoth: PairCondition = (eb, x, y, a, b) =>
  eb.or([eb.and([eb(x, '=', a), eb(y, '=', b)]), eb.and([eb(x, '=', b), eb(y, '=', a)])]);

/** `(x = me and y in others) or (y = me and x in others)`: the row links me to one of others. */
export const linksAnyOf: PairCondition = (eb, x, y, me, others) =>
  eb.or([
    eb.and([eb(x, '=', me), eb(y, 'in', others)]),
    eb.and([eb(y, '=', me), eb(x, 'in', others)]),
  ]);
