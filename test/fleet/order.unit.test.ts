import { orderJobs } from '../../lib/fleet/order';

describe('order', () => {
  describe('orderJobs', () => {
    const jobs = [
      { namespace: 'prod', id: 'web', priority: 80 },
      { namespace: 'default', id: 'zeta', priority: 50 },
      { namespace: 'prod', id: 'api', priority: 50 },
      { namespace: 'default', id: 'Alpha' },
      { namespace: 'default', id: 'alpha', priority: 10 },
    ];

    it('orders by namespace, then job ID, by code unit', () => {
      // Arrange / Act
      const ordered = orderJobs(jobs, 'id');

      // Assert
      expect(ordered.map((j) => `${j.namespace}/${j.id}`)).toEqual([
        'default/Alpha',
        'default/alpha',
        'default/zeta',
        'prod/api',
        'prod/web',
      ]);
    });

    it('orders by priority with the highest last, ties by namespace then ID, a missing priority as 50', () => {
      // Arrange / Act
      const ordered = orderJobs(jobs, 'priority');

      // Assert
      expect(ordered.map((j) => `${j.namespace}/${j.id}`)).toEqual([
        'default/alpha',
        'default/Alpha',
        'default/zeta',
        'prod/api',
        'prod/web',
      ]);
    });

    it('leaves its argument as it was', () => {
      // Arrange
      const copy = [...jobs];

      // Act
      orderJobs(jobs, 'priority');

      // Assert
      expect(jobs).toEqual(copy);
    });
  });
});
