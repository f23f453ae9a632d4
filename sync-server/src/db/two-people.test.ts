import { describe, expect, it } from 'vitest';
import { compileOnly } from '../../test/compile-only';
import { involves, linksAnyOf, linksBoth } from './two-people';

/** Builders that only compile, one per engine, with the server's CamelCasePlugin. */
const engines = { sqlite: compileOnly('sqlite'), postgres: compileOnly('postgres') };

// Each helper replaced the condition written out by hand: the statements must not change.
describe.each(Object.entries(engines))('two-people conditions (%s)', (_name, db) => {
  const pings = () => db.selectFrom('pings').select('id');

  it('involves: x = person or y = person', () => {
    const helper = pings().where((eb) => involves(eb, 'senderId', 'receiverId', 'a'));
    const byHand = pings().where((eb) =>
      eb.or([eb('senderId', '=', 'a'), eb('receiverId', '=', 'a')]),
    );
    expect(helper.compile()).toEqual(byHand.compile());
  });

  it('linksBoth: (x = a and y = b) or (x = b and y = a)', () => {
    const helper = pings().where((eb) => linksBoth(eb, 'senderId', 'receiverId', 'a', 'b'));
    const byHand = pings().where((eb) =>
      eb.or([
        eb.and([eb('senderId', '=', 'a'), eb('receiverId', '=', 'b')]),
        eb.and([eb('senderId', '=', 'b'), eb('receiverId', '=', 'a')]),
      ]),
    );
    expect(helper.compile()).toEqual(byHand.compile());
  });

  it('linksAnyOf: (x = me and y in others) or (y = me and x in others)', () => {
    const others = ['b', 'c'];
    const helper = db
      .selectFrom('blocks')
      .select('blockerId')
      .where((eb) => linksAnyOf(eb, 'blockerId', 'blockedId', 'a', others));
    const byHand = db
      .selectFrom('blocks')
      .select('blockerId')
      .where((eb) =>
        eb.or([
          eb.and([eb('blockerId', '=', 'a'), eb('blockedId', 'in', others)]),
          eb.and([eb('blockedId', '=', 'a'), eb('blockerId', 'in', others)]),
        ]),
      );
    expect(helper.compile()).toEqual(byHand.compile());
    expect(helper.compile().parameters).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });
});
