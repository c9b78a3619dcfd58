// Scenario: a child that spins the CPU, one that sleeps, and one that exits with a code, each
// timed by timedRun: the CPU is the child's own (which `process.resourceUsage` of the bench
// cannot see), the wall covers the sleep, and the exit code comes through.

import { parseTimeReport, timedRun } from '../../bench/timed-run';

describe('timedRun', () => {
  it("counts the child's CPU", async () => {
    // Act: a loop until the child has used 300 ms of user CPU (wall time would be a loaded
    // machine's guess).
    const run = await timedRun(
      process.execPath,
      ['-e', 'const start = process.cpuUsage(); while (process.cpuUsage(start).user < 300_000);'],
      {},
    );

    // Assert
    expect(run.cpuMs).toBeGreaterThanOrEqual(300);
    expect(run.code).toBe(0);
  });

  it('counts a sleep in the wall time and not in the CPU', async () => {
    // Act
    const run = await timedRun('sleep', ['0.3'], {});

    // Assert
    expect(run.wallMs).toBeGreaterThanOrEqual(290);
    expect(run.cpuMs).toBeLessThan(100);
  });

  it("passes the child's exit code and environment through", async () => {
    // Act
    const run = await timedRun(process.execPath, ['-e', 'process.exit(Number(process.env.BENCH_CODE))'], {
      BENCH_CODE: '3',
    });

    // Assert
    expect(run.code).toBe(3);
  });
});

describe('parseTimeReport', () => {
  it('reads real, user and system seconds', () => {
    // Act / Assert
    expect(parseTimeReport('0.150 0.080 0.020\n')).toEqual({ wallMs: 150, cpuMs: 100 });
  });

  it('fails naming the text when it is not a report', () => {
    // Act / Assert
    expect(() => parseTimeReport('bash: nomad: command not found')).toThrow(
      `bash's time report "bash: nomad: command not found" is not "<real> <user> <system>" seconds`,
    );
  });
});
