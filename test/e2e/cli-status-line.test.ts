/**
 * Scenario (issue #39, "see it at a terminal"): the real command, against the simulator with ACLs
 * on and the README policy's token, restarts a job of three allocations one per batch with a 2 s
 * batch wait, at a pseudo-terminal. On stderr (a TTY) a status line is drawn under Nomad's lines
 * and redrawn in place (`\r` + erase line); stdout, sent to a file from the same terminal, holds
 * exactly the bytes of the same command run without a terminal, and with stdout on the terminal
 * too, Nomad's lines stay whole once the status line's drawings are taken out. Without a terminal
 * nothing is drawn. A request Nomad holds 11 s is named on the status line, and with
 * `-output json` it is a `request-slow` event. `-output json` events carry the job, its namespace,
 * the batch and the running totals, and the run-level events (issue #40: `run-started`, each
 * batch's `batch-finished`, `run-ended`) come in order; an unknown job (a run or a dry run) is one JSON `error` event
 * on stdout, exit 1.
 */

import { ERASE_LINE } from '../../lib/cli/terminal/status-line';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { simpleJob } from '../steps/helpers/harness';
import { normalise, runCli } from './helpers/run-cli';
import { runAtTerminal } from './helpers/run-pty-stdout-file';

const ARGS = ['-yes', '-batch-size', '1', '-batch-wait', '2s'];

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The simulator with ACLs and the README policy's token, once every job's allocations run. */
async function startRunning(jobs: readonly { id: string; count: number }[]): Promise<NodeJS.ProcessEnv> {
  sim = await startSimulator({
    clock: createScaledClock(1),
    scenario: {
      nodes: [{ name: 'n1' }],
      jobs: jobs.map((j) => simpleJob(j.id, 'service', j.count)),
      acl: readmePolicyAcl(['default']),
    },
  });
  const want = jobs.reduce((sum, j) => sum + j.count, 0);
  await sim.control.waitFor(
    (state) => state.allocations().filter((a) => a.ClientStatus === 'running').length === want,
  );
  return { NOMAD_ADDR: sim.address, NOMAD_TOKEN: OPERATOR_TOKEN };
}

/**
 * A terminal's bytes cut at each erase: the status line's drawings (no line end) and the other
 * lines (each ending `\r\n`, the terminal's line end), in order.
 */
function splitScreen(screen: string): { drawings: string[]; lines: string } {
  const segments = screen.split(ERASE_LINE);
  return {
    drawings: segments.filter((s) => s !== '' && !s.includes('\n')),
    lines: segments.filter((s) => s.includes('\n')).join(''),
  };
}

/** The lines a first run after a source change prints while it prepares (stderr, at a terminal only). */
const withoutPreparing = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('Preparing '))
    .join('\n');

describe('nomad-restart at a terminal', () => {
  it('draws a status line on stderr, redraws it in place, and leaves stdout byte for byte as without a terminal', async () => {
    // Arrange
    const env = await startRunning([{ id: 'web', count: 3 }]);

    // Act: stdout to a file at a terminal, then the same command without a terminal.
    const atTerminal = await runAtTerminal([...ARGS, 'web'], env, true);
    const piped = await runCli(['-no-color', ...ARGS, 'web'], env);

    // Assert
    expect([atTerminal.code, piped.code]).toEqual([0, 0]);
    expect(normalise(atTerminal.stdout ?? '')).toBe(piped.stdout);
    expect(piped.stdout).toContain('Job restarted successfully!');
    expect(piped.stderr).toBe('');
    const { drawings, lines } = splitScreen(atTerminal.screen);
    // Nothing but the status line (and the first run's preparing notices) reached the terminal.
    expect(withoutPreparing(lines.replace(/\r/g, ''))).toBe('');
    expect(drawings).toEqual(
      expect.arrayContaining([
        'batch 1 of 3 | 0 restarted, 0 failed',
        expect.stringMatching(/^batch 2 of 3 \| 1 restarted, 0 failed \| next batch in [0-2]s \| ETA \d+s$/),
        expect.stringMatching(/^batch 3 of 3 \| 2 restarted, 0 failed/),
        'batch 3 of 3 | 3 restarted, 0 failed',
      ]),
    );
    // Redrawn: the 2 s waits alone give a drawing a second.
    expect(drawings.length).toBeGreaterThanOrEqual(4);
    expect(atTerminal.screen.endsWith(ERASE_LINE)).toBe(true);
  }, 90_000);

  it("keeps Nomad's lines whole when stdout is the same terminal", async () => {
    // Arrange
    const env = await startRunning([{ id: 'web', count: 3 }]);

    // Act
    const atTerminal = await runAtTerminal([...ARGS, 'web'], env, false);
    const piped = await runCli(['-no-color', ...ARGS, 'web'], env);

    // Assert
    const { drawings, lines } = splitScreen(atTerminal.screen);
    expect(withoutPreparing(normalise(lines.replace(/\r\n/g, '\n')))).toBe(piped.stdout);
    expect(drawings.some((d) => d.startsWith('batch 2 of 3'))).toBe(true);
  }, 90_000);

  it('names a request Nomad holds past 10 s on the status line, and as a request-slow event with -output json', async () => {
    // Arrange: every restart call waits 11 s in Nomad; one job for each command.
    const env = await startRunning([
      { id: 'slow-text', count: 1 },
      { id: 'slow-json', count: 1 },
    ]);
    sim?.control.injectFault({ kind: 'latency', latencyMs: 11_000, pathSuffix: '/restart', method: 'PUT' });
    const restartCall = String.raw`PUT http://127\.0\.0\.1:\d+/v1/client/allocation/[0-9a-f-]{36}/restart\?namespace=default`;

    // Act
    const [text, json] = await Promise.all([
      runAtTerminal(['-yes', 'slow-text'], env, true),
      runCli(['-output', 'json', '-yes', 'slow-json'], env),
    ]);

    // Assert
    expect([text.code, json.code]).toEqual([0, 0]);
    const { drawings } = splitScreen(text.screen);
    expect(drawings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^no answer from Nomad for 1[01]s \\(${restartCall}\\) \\| batch 1 of 1`),
        ),
      ]),
    );
    const slow = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; request?: string })
      .filter((e) => e.type === 'request-slow');
    expect(slow).toHaveLength(1);
    expect(slow[0]?.request).toMatch(new RegExp(`^${restartCall}$`));
    expect(json.stderr).toBe('');
  }, 90_000);
});

describe('nomad-restart -output json', () => {
  it('says an unknown job as one JSON error event on stdout and exits 1', async () => {
    // Arrange
    const env = await startRunning([{ id: 'web', count: 1 }]);

    // Act
    const json = await runCli(['-output', 'json', '-yes', 'nope'], env);
    const text = await runCli(['-yes', 'nope'], env);

    // Assert
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const lines = json.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      type: 'error',
      time: expect.any(Number),
      message: 'No job(s) with prefix or ID "nope" found',
      job: 'nope',
    });
    // The same words the text output prints on stderr.
    expect(text).toEqual({ code: 1, stdout: '', stderr: 'No job(s) with prefix or ID "nope" found\n' });
  }, 60_000);

  it('says a dry run of an unknown job as one JSON error event on stdout and exits 1', async () => {
    // Arrange
    const env = await startRunning([{ id: 'web', count: 1 }]);

    // Act
    const json = await runCli(['-output', 'json', '-dry-run', 'nope'], env);
    const text = await runCli(['-dry-run', 'nope'], env);

    // Assert
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      {
        type: 'error',
        time: expect.any(Number),
        message: 'No job(s) with prefix or ID "nope" found',
        job: 'nope',
      },
    ]);
    expect(text).toEqual({ code: 1, stdout: '', stderr: 'No job(s) with prefix or ID "nope" found\n' });
  }, 60_000);

  it("gives each event the job, its namespace, the batch, the number of batches and the run's totals", async () => {
    // Arrange
    const env = await startRunning([{ id: 'web', count: 3 }]);

    // Act
    const json = await runCli(['-output', 'json', '-yes', '-batch-size', '2', 'we'], env);

    // Assert
    expect(json.code).toBe(0);
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => [e['type'], e['job'], e['namespace'], e['batch'], e['batches']])).toEqual([
      ['restart-started', 'web', 'default', 1, 2],
      ['run-started', 'web', 'default', 1, 2],
      ['batch-started', 'web', 'default', 1, 2],
      ['allocation-restarting', 'web', 'default', 1, 2],
      ['allocation-restarting', 'web', 'default', 1, 2],
      ['batch-finished', 'web', 'default', 1, 2],
      ['batch-started', 'web', 'default', 2, 2],
      ['allocation-restarting', 'web', 'default', 2, 2],
      ['batch-finished', 'web', 'default', 2, 2],
      ['finished', 'web', 'default', 2, 2],
      ['run-ended', 'web', 'default', 2, 2],
    ]);
    // The totals count a batch once Decide has: a batch-finished event comes just before.
    expect(events.map((e) => e['totals'])).toEqual([
      { restarted: 0, failed: 0 },
      { restarted: 0, failed: 0 },
      { restarted: 0, failed: 0 },
      { restarted: 0, failed: 0 },
      { restarted: 0, failed: 0 },
      { restarted: 0, failed: 0 },
      { restarted: 2, failed: 0 },
      { restarted: 2, failed: 0 },
      { restarted: 2, failed: 0 },
      { restarted: 3, failed: 0 },
      { restarted: 3, failed: 0 },
    ]);
    // The run-level events, in order: the run's start, what each batch did, the run's end.
    const runLevel = ['run-started', 'batch-finished', 'run-ended'];
    expect(
      events
        .filter((e) => runLevel.includes(String(e['type'])))
        .map((e) =>
          e['type'] === 'batch-finished'
            ? [e['type'], e['batchNumber'], e['restarted'], e['failed'], typeof e['durationMs']]
            : e['type'] === 'run-started'
              ? [e['type'], e['planned'], e['batches']]
              : [e['type'], e['outcome'], e['counts']],
        ),
    ).toEqual([
      ['run-started', 3, 2],
      ['batch-finished', 1, 2, 0, 'number'],
      ['batch-finished', 2, 1, 0, 'number'],
      ['run-ended', 'succeeded', { planned: 3, restarted: 3, failed: 0, skipped: 0, notReached: 0 }],
    ]);
  }, 60_000);
});
