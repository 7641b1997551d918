/** The order of a dispatch tile's people (issue 49). */
import { describe, expect, it } from 'vitest';
import { tileMembers } from './tileMembers.ts';

const user = (id: number, firstName: string, channelIds: Array<number | null>) => ({
  id,
  display_name: '',
  firstName,
  lastName: 'Test',
  user_sockets: channelIds.map((channelId) => ({ channelId }) as never),
});

describe("a dispatch tile's people", () => {
  it('lists those in the channel first, then those connected elsewhere, then the others, each by name', () => {
    const people = tileMembers(
      [
        user(1, 'Zoé', []),
        user(2, 'Yann', [9]),
        user(3, 'Xavier', [4]),
        user(4, 'Alice', []),
        user(5, 'Bruno', [null, 4]),
        user(6, 'Chloé', [null]),
      ],
      4,
    );
    expect(people.map(({ name, presence }) => `${name} ${presence}`)).toEqual([
      'Bruno Test inChannel',
      'Xavier Test inChannel',
      'Chloé Test online',
      'Yann Test online',
      'Alice Test offline',
      'Zoé Test offline',
    ]);
  });

  it('names a member by its display name when it has one', () => {
    expect(tileMembers([{ ...user(1, 'Mia', []), display_name: 'Unit 7' }], 1)[0]?.name).toBe('Unit 7');
  });
});
