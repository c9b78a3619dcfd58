/**
 * `GET /v1/vars?prefix=&namespace=` (`Variables.List`, nomad/variables_endpoint.go): metadata
 * only, never items. A variable the token may not `list` (which `read` brings) is left out
 * without an error, as Nomad's paginator selector does, so a token without the capability gets
 * `[]` and a 200; only an unknown token is refused (403). `namespace=*` lists every namespace with
 * the same per-variable check (`listAllVariables`). Sorted by namespace then path (the variables
 * table's ID index); a blocking query on the variables table, whose index the answer carries.
 */
import type { ApiEnv, ApiRequest, ApiResponse, Route } from '../api';
import { namespaceOf, ok, principalOf } from '../api';
import { blockingQuery } from '../blocking';
import { renderVariable } from './variable-render';

function listVariables(env: ApiEnv, req: ApiRequest): Promise<ApiResponse> {
  const principal = principalOf(env, req);
  const namespace = namespaceOf(req);
  const prefix = req.query.get('prefix') ?? '';
  const { store } = env.cluster.ctx;
  return blockingQuery(env, req, {
    tables: ['variables'],
    resourceIndex: () => store.last('variables'),
    render: () =>
      ok(
        env.cluster.variables
          .list(namespace, prefix)
          .filter((v) => env.acl.allowedVariable(principal, v.namespace, v.path, 'list'))
          .map((v) => renderVariable(v, env.acl.isManagement(principal))),
      ),
  });
}

/** `GET /v1/vars`; `absent` (a Nomad before 1.4) answers its 404 with an empty body. */
export const variablesRoute: Route = {
  pattern: '/v1/vars',
  methods: ['GET'],
  handler: (env, req) =>
    env.cluster.variables.api === 'absent' ? { status: 404, body: '' } : listVariables(env, req),
};
