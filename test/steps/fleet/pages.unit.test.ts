import type { PageOptions, QueryResult } from '../../../lib/nomad/query';
import { forEachPage } from '../../../lib/steps/fleet/pages';

/** A page answer of `items`, naming `nextToken` when given. */
const page = (items: number[], nextToken?: string): QueryResult<number[]> => ({
  value: items,
  index: 1,
  lastContact: 0,
  knownLeader: true,
  ...(nextToken === undefined ? {} : { nextToken }),
});

describe('pages', () => {
  describe('forEachPage', () => {
    it('reads page after page with the previous token, handing each over in order', async () => {
      // Arrange
      const asked: PageOptions[] = [];
      const answers = [page([1, 2], 't2'), page([3, 4], 't3'), page([5])];
      const seen: number[][] = [];

      // Act
      const requests = await forEachPage(
        async (p) => {
          asked.push(p);
          return answers[asked.length - 1] ?? page([]);
        },
        (items) => seen.push([...items]),
        2,
      );

      // Assert
      expect(requests).toBe(3);
      expect(asked).toEqual([
        { perPage: 2 },
        { perPage: 2, nextToken: 't2' },
        { perPage: 2, nextToken: 't3' },
      ]);
      expect(seen).toEqual([[1, 2], [3, 4], [5]]);
    });

    it('stops when a server hands the same token back instead of looping forever', async () => {
      // Arrange
      let calls = 0;

      // Act
      const requests = await forEachPage(
        async () => {
          calls++;
          return page([calls], 'same');
        },
        () => {},
      );

      // Assert
      expect(requests).toBe(2);
    });
  });
});
