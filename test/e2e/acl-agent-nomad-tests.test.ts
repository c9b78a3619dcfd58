/**
 * Nomad's own ACL test (T11, `TestJobRestartCommand_ACL`) and scenario 8 (`-reschedule` of a
 * system job with a token without `submit-job` or `evaluate-job`) on a real ACL-enabled agent
 * (acl-agent.ts: NOMAD_E2E_ACL_ADDR and NOMAD_E2E_ACL_TOKEN), with tokens made from policies as an
 * operator writes them. The simulator runs both in cli-nomad-tests.test.ts and
 * cli-scenarios.test.ts; without an ACL agent this file prints why it does not run.
 */

import { readmePolicyHcl } from '../fixtures/readme-policy';
import { T11_CASES, T11_JOB, T11_TOKENS } from '../fixtures/t11-cases';
import { AclAgent, onAclAgent, rawExecJob } from './helpers/acl-agent';
import { type CliResult, evaluateDeniedErrorLines, runCli } from './helpers/run-cli';

const WHY = 'needs an ACL-enabled agent: set NOMAD_E2E_ACL_ADDR and NOMAD_E2E_ACL_TOKEN (a management token)';
const namespacePolicy = (...capabilities: string[]) =>
  `namespace "NAMESPACE" { capabilities = [${capabilities.map((c) => `"${c}"`).join(', ')}] }`;
const lines = (text: string) => text.split('\n');
const short = (id: string) => id.slice(0, 8);

if (!onAclAgent()) {
  it('runs against an ACL-enabled agent only', () => {
    // Assert: nothing to run here; the reason is printed.
    console.log(`not run: ACL agent cases ${WHY}`);
    expect(onAclAgent()).toBe(false);
  });
} else {
  describe('ACL (T11) on an agent with ACLs on', () => {
    const JOB = T11_JOB;
    const CASES = T11_CASES;
    let agent: AclAgent;
    const results: CliResult[] = [];
    beforeAll(async () => {
      agent = await AclAgent.open();
      await agent.register(rawExecJob(JOB, 'batch', 1, agent.namespace), 1);
      const tokens: Record<string, string> = {};
      for (const [name, capabilities] of Object.entries(T11_TOKENS))
        tokens[name] = await agent.token(namespacePolicy(...capabilities));
      for (const c of CASES) {
        const token = c.token === undefined ? {} : { NOMAD_TOKEN: tokens[c.token] ?? '' };
        results.push(
          await runCli(['-yes', c.job], {
            NOMAD_ADDR: agent.address,
            NOMAD_NAMESPACE: agent.namespace,
            ...token,
          }),
        );
      }
    });
    afterAll(() => agent.close());

    it.each(CASES.map((c, i) => ({ ...c, i })))('$name', ({ i, code, err }) => {
      // Arrange
      const result = results[i] as CliResult;

      // Assert
      expect(result.code).toBe(code);
      if (err !== '') expect(result.stderr).toContain(err);
      else expect(result.stdout).toContain('Job restarted successfully!');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  });

  describe('-reschedule of a system job without submit-job or evaluate-job (scenario 8), on an agent with ACLs on', () => {
    const JOB = 'node-monitor';
    // The README's policy (the job's lock granted, as the help text asks): only evaluate-job is missing.
    const readme = readmePolicyHcl().replace('namespace "default"', 'namespace "NAMESPACE"');
    let agent: AclAgent;
    let allowed: CliResult;
    let denied: CliResult;
    let stopped: string;
    beforeAll(async () => {
      agent = await AclAgent.open();
      await agent.register(rawExecJob(JOB, 'system', 1, agent.namespace), 1);
      const withEvaluate = await agent.token(
        readme.replace('["alloc-lifecycle"]', '["alloc-lifecycle", "evaluate-job"]'),
      );
      const without = await agent.token(readme);
      const env = { NOMAD_ADDR: agent.address, NOMAD_NAMESPACE: agent.namespace };
      // The contrast first: with evaluate-job the replacement is placed, and runs.
      allowed = await runCli(['-yes', '-reschedule', JOB], { ...env, NOMAD_TOKEN: withEvaluate });
      stopped =
        (await agent.allocations(JOB)).find((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running')
          ?.ID ?? '';
      denied = await runCli(['-yes', '-reschedule', JOB], { ...env, NOMAD_TOKEN: without });
    });
    afterAll(() => agent.close());

    it('succeeds with evaluate-job in the token', () => {
      // Assert
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).toContain('Job restarted successfully!');
    });

    it('ends on the 403 with errors (exit 1), the allocation already stopped', async () => {
      // Assert
      expect(denied.code).toBe(1);
      expect(lines(denied.stdout)).toEqual([
        '==> <ts>: Restarting 1 allocation',
        `    <ts>: Rescheduling allocation "${short(stopped)}" for group "group1"`,
        // The last batch: nothing left to stop before (Nomad prints the "Stopping" line only then).
        '==> <ts>: Job restart finished with errors',
        '',
      ]);
      expect(lines(denied.stderr)).toEqual(evaluateDeniedErrorLines(short(stopped)));
      expect((await agent.allocation(stopped)).DesiredStatus).toBe('stop');
    });
  });
}
