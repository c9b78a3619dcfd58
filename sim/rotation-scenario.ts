/**
 * The rotation scenario (`scenarios/rotation.json`, issue #38): six service jobs in two namespaces,
 * three of which consume the variable `nomad/jobs/shared/db` of namespace `payments`, each in its
 * own way (implicitly, through `nomadVar`, through `nomadVarList` on a prefix), beside a job whose
 * template Nomad cannot show (`SourcePath`), a Vault consumer and a near miss. The file's
 * `_comment` and sim/README.md say which job reads what.
 */
import { loadScenarioFile } from './scenario';
import type { Scenario } from './types';

/** The names a rotation test needs: the shared variable, its consumers, the others, the tokens. */
export const ROTATION = {
  /** The variable rotated, in namespace `payments`. */
  variable: { namespace: 'payments', path: 'nomad/jobs/shared/db' },
  /** Its consumers, all in `payments`, with how each reads it. */
  consumers: [
    { namespace: 'payments', job: 'shared', reads: 'implicitly: group db is nomad/jobs/shared/db' },
    { namespace: 'payments', job: 'checkout', reads: 'nomadVar "nomad/jobs/shared/db"' },
    { namespace: 'payments', job: 'ledger', reads: 'nomadVarList "nomad/jobs/shared"' },
  ],
  /** The job whose template comes from a file (`SourcePath`): not inspectable. */
  notInspectable: { namespace: 'default', job: 'reports' },
  /** Consumers of something else: the Vault secret `kv/data/payments/db`, and `nomad/jobs/shared/db-replica`. */
  others: [
    { namespace: 'payments', job: 'billing', reads: 'secret "kv/data/payments/db"' },
    { namespace: 'default', job: 'search', reads: 'nomadVar "nomad/jobs/shared/db-replica"' },
  ],
  /** Allocations per job. */
  allocationsPerJob: 2,
  tokens: {
    management: 'management-secret',
    /** The README's fleet policy, its variables `list` on `nomad/jobs/*` in every namespace included. */
    rotation: 'rotation-secret',
    /** The fleet policy without its variables `list` rule: its listing of `nomad/jobs/…` is empty, without an error. */
    fleet: 'fleet-secret',
  },
} as const;

/** The bundled rotation scenario (`scenarios/rotation.json`). */
export function bundledRotationScenario(): Scenario {
  return loadScenarioFile(new URL('./scenarios/rotation.json', import.meta.url).pathname);
}
