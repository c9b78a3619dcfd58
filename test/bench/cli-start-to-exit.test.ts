// Scenario: the start-to-exit bench at one run, from the checkout (the smoke run packs nothing),
// against the simulator; then with NOMAD_BIN set to a stand-in `nomad` (one request, exit 1) and
// NOMAD_E2E_ADDR to a simulator playing the agent. It checks the rows' shape, the request counts
// and the ratios' presence; it asserts no timing.

import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureStartToExit } from '../../bench/cli-start-to-exit';
import { startSimulator } from '../../sim/index';

const BIN = fileURLToPath(new URL('../../bin/nomad-restart.js', import.meta.url));
const CASES = ['job not found', 'validation error (-batch-size=0)', '6 allocations in place (-batch-size 2)'];
const SAVED = { bin: process.env['NOMAD_BIN'], addr: process.env['NOMAD_E2E_ADDR'] };

function restoreEnv(name: 'NOMAD_BIN' | 'NOMAD_E2E_ADDR', value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

afterEach(() => {
  restoreEnv('NOMAD_BIN', SAVED.bin);
  restoreEnv('NOMAD_E2E_ADDR', SAVED.addr);
});

describe('measureStartToExit', () => {
  it('measures each case from the checkout and says why nomad was not run', async () => {
    // Arrange
    delete process.env['NOMAD_BIN'];

    // Act
    const rows = await measureStartToExit(1, undefined, join(tmpdir(), 'no-such-executable'));

    // Assert: no single executable (a row says so), ours from the checkout.
    expect(rows[0]?.figure).toMatch(/no-such-executable is absent \(npm run build:sea builds it\)$/);
    for (const [i, name] of CASES.entries()) {
      const row = rows.find((r) =>
        r.metric.startsWith(`start to exit, ${name} against the simulator, checkout`),
      );
      expect(row?.metric).toContain(`(median of 1; exit ${i === 2 ? 0 : 1})`);
      expect(row?.figure).toMatch(/^CPU \d+\.\d{3} s, wall \d+\.\d{3} s, \d+ requests?$/);
      expect(row?.nomadCli).toBe('not run: NOMAD_BIN unset');
    }
    // A validation error is refused before any request.
    expect(rows.find((r) => r.metric.includes('validation error'))?.figure).toContain(', 0 requests');
    expect(rows.at(-1)?.metric).toBe('load average (1 min) before the start-to-exit cases and after each');
    expect(rows.at(-1)?.figure).toMatch(/^\d+\.\d → \d+\.\d → \d+\.\d → \d+\.\d$/);
  });

  it('runs nomad beside ours and the single executable against the agent and gives the ratios', async () => {
    // Arrange: a stand-in nomad that makes one request and exits 1, like a job not found; a
    // stand-in single executable that runs the checkout's command.
    const dir = await mkdtemp(join(tmpdir(), 'bench-nomad-'));
    const sea = join(dir, 'nomad-restart-linux-test');
    await writeFile(sea, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    await chmod(sea, 0o755);
    const nomad = join(dir, 'nomad');
    await writeFile(
      nomad,
      `#!${process.execPath}\n` +
        `if (process.argv[2] === 'version') console.log('Nomad v0.0.0-stand-in');\n` +
        `else fetch(process.env.NOMAD_ADDR + '/v1/jobs').then(() => process.exit(1));\n`,
    );
    await chmod(nomad, 0o755);
    const agent = await startSimulator({
      timeScale: 0.01,
      scenario: { nodes: [{ name: 'node-0' }], jobs: [] },
    });
    process.env['NOMAD_BIN'] = nomad;
    process.env['NOMAD_E2E_ADDR'] = agent.address;

    try {
      // Act
      const rows = await measureStartToExit(1, undefined, sea);

      // Assert
      expect(rows.some((r) => r.metric === 'start to exit, single executable')).toBe(false);
      for (const [i, name] of CASES.entries()) {
        const executable = rows.find(
          (r) =>
            r.metric.startsWith(`start to exit, ${name} against the agent at`) &&
            r.metric.includes('single executable (nomad-restart-linux-test)'),
        );
        expect(executable?.metric).toContain(`(median of 1; exit ${i === 2 ? 0 : 1})`);
        expect(executable?.figure).toMatch(/; ours \/ nomad: CPU \d+\.\d{2}×, wall \d+\.\d{2}×$/);
        const row = rows.find((r) => r.metric.startsWith(`start to exit, ${name} against the agent at`));
        expect(row?.metric).toContain('checkout');
        expect(row?.figure).toMatch(/; ours \/ nomad: CPU \d+\.\d{2}×, wall \d+\.\d{2}×$/);
        expect(row?.nomadCli).toMatch(
          /^Nomad v0\.0\.0-stand-in: CPU \d+\.\d{3} s, wall \d+\.\d{3} s, 1 request \(exit 1\)$/,
        );
        expect(['pass', 'MISS']).toContain(row?.verdict);
      }
      // The run history our restarts wrote for the fixture is gone with it.
      const left = (await (
        await fetch(`${agent.address}/v1/vars?prefix=nomad-restart/`)
      ).json()) as unknown[];
      expect(left).toEqual([]);
    } finally {
      await agent.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
