/**
 * Scenario: a CDK app with a bad restart schedule, synthesized the way a user does it, through
 * the CDK CLI (`cdk synth`, which runs the app with tsx): the synth fails, and what it prints
 * names the schedule and gives the reason (Nomad's message for a bad restart input). A good
 * schedule in the same app synthesizes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APP = 'npx tsx test/fixtures/apps/schedule-app.ts';

function cdkSynth(context: Record<string, string>): {
  status: number | null;
  output: string;
  outdir: string;
} {
  const outdir = mkdtempSync(join(tmpdir(), 'nomad-restart-schedule-'));
  const args = ['cdk', 'synth', '--app', APP, '--no-notices', '--quiet', '-o', outdir];
  for (const [key, value] of Object.entries(context)) {
    args.push('-c', `${key}=${value}`);
  }
  const run = spawnSync('npx', args, {
    encoding: 'utf8',
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, outdir };
}

describe('cdk synth of an app with a restart schedule', () => {
  it.each([
    {
      name: 'a restart input Nomad refuses',
      context: { input: '{"job":"web","batchSize":"0"}' },
      expected:
        'Schedule "nightly-web": Invalid -batch-size value "0": number value must be greater than zero',
    },
    {
      name: 'an invalid cron expression',
      context: { schedule: 'cron(0 25 * * ? *)' },
      expected:
        'Schedule "nightly-web": invalid schedule "cron(0 25 * * ? *)": Number \'25\' of hours field is bigger than upper limit \'23\'',
    },
  ])('fails on $name, naming the schedule and the reason', ({ context, expected }) => {
    // Act
    const run = cdkSynth(context);
    rmSync(run.outdir, { recursive: true, force: true });

    // Assert
    expect(run.status).not.toBe(0);
    expect(run.output).toContain(expected);
  });

  it('writes the template of a valid schedule', () => {
    // Act
    const run = cdkSynth({});

    // Assert
    expect({ status: run.status, output: run.status === 0 ? '' : run.output }).toEqual({
      status: 0,
      output: '',
    });
    const template = readFileSync(join(run.outdir, 'NomadRestartScheduleFixture.template.json'), 'utf8');
    rmSync(run.outdir, { recursive: true, force: true });
    expect(template).toContain('"ScheduleExpression": "cron(0 2 * * ? *)"');
  });
});
