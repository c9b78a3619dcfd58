/** A job with Consul services (Nomad's default provider) at both levels, for the simulated Consul's tests. */
import type { Job } from '../../../lib/nomad/types';
import { job, seconds } from './fixtures';

/**
 * `web` ×1: tasks `server` and `logger`; group service `web` (check `alive`, http) and, on `server`,
 * task service `api` (check `ready`, tcp); every check runs each 2 s.
 */
export function consulJob(id = 'shop'): Job {
  const every2s = { Interval: seconds(2), Timeout: seconds(1) };
  return job(id, 'service', [
    {
      Name: 'web',
      Count: 1,
      Tasks: [
        {
          Name: 'server',
          Driver: 'mock_driver',
          Config: {},
          Services: [{ Name: 'api', PortLabel: 'rpc', Checks: [{ Name: 'ready', Type: 'tcp', ...every2s }] }],
        },
        { Name: 'logger', Driver: 'mock_driver', Config: {} },
      ],
      Services: [
        {
          Name: 'web',
          PortLabel: 'http',
          Checks: [{ Name: 'alive', Type: 'http', Path: '/health', ...every2s }],
        },
      ],
    },
  ]);
}
