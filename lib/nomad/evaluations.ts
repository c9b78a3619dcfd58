/**
 * Evaluation endpoints of the Nomad client (`client.evaluations()`).
 */
import { decodeEvaluation } from './private/decode-eval-node';
import type { Requester } from './private/requester';
import type { QueryOptions, QueryResult } from './query';
import type { Evaluation } from './types';

/** Evaluation endpoints, reached as `client.evaluations()`. */
export class Evaluations {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /** `GET /v1/evaluation/:id`. */
  public info(evalId: string, q?: QueryOptions): Promise<QueryResult<Evaluation>> {
    return this.http.query(`/v1/evaluation/${encodeURIComponent(evalId)}`, {}, q, decodeEvaluation);
  }
}
