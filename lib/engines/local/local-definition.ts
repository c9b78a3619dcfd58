/**
 * The state machine the local engine runs: the app's own stack, synthesized in a child process
 * with bundling off (the handlers are bound by state name, so no Lambda asset is needed), cached
 * until a source changes, and read out of the template with its ARN.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SynthesisFailedError } from './errors';
import { ensureSynthesized } from './synth';
import { type ExtractedStateMachine, extractStateMachineDefinition } from './template';

/** What the local engine runs: the definition, its ARN, and its functions' timeouts. */
export type LocalStateMachine = Pick<
  ExtractedStateMachine,
  'definition' | 'stateMachineArn' | 'functionTimeoutsMs'
>;

const PROJECT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const STACK_NAME = 'NomadRestart';
/** Where the local synth lives: apart from `cdk.out`, whose template carries bundled assets. */
const LOCAL_SYNTH_DIR = join(PROJECT_DIR, '.nomad-restart', 'synth');
/** `nomadAddress` for the local synth: a reserved name (RFC 6761 `.invalid`) nobody can reach. */
const LOCAL_SYNTH_NOMAD_ADDRESS = 'https://nomad.local-engine.invalid:4646';

/**
 * Synthesizes the stack for local use (once, while sources are unchanged) with bundling off:
 * the local engine binds handlers by state name, so the Lambda assets are never needed, and
 * the definition is the same one `cdk synth` renders.
 */
async function synthesizeForLocalRun(projectDir: string, outDir: string): Promise<void> {
  // Concurrent first runs (tests, two terminals) each synthesize into their own folder and
  // then rename the template into place, which is atomic: a reader never sees half a file.
  const scratch = `${outDir}.${process.pid}.${randomUUID()}`;
  try {
    await runCdkApp(projectDir, scratch);
    await mkdir(outDir, { recursive: true });
    const template = `${STACK_NAME}.template.json`;
    await rename(join(scratch, template), join(outDir, template));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function runCdkApp(projectDir: string, outDir: string): Promise<void> {
  const tsx = join(projectDir, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, join(projectDir, 'bin', 'app.ts')], {
      cwd: projectDir,
      env: {
        ...process.env,
        CDK_OUTDIR: outDir,
        // The CDK CLI refuses `aws:` context keys from users, but the app reads this variable.
        // The address is never read in a local run (the command hands the handlers its own
        // configuration); the app only needs one that is not loopback to synthesize.
        CDK_CONTEXT_JSON: JSON.stringify({
          'aws:cdk:bundling-stacks': [],
          nomadAddress: LOCAL_SYNTH_NOMAD_ADDRESS,
        }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) =>
      reject(new SynthesisFailedError('cannot run the CDK app', { cause: error })),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new SynthesisFailedError(`CDK app exited with code ${code}: ${stderr.trim()}`)),
    );
  });
}

/** The synthesized definition, read from the local synth cache when it is fresh. */
export async function loadLocalDefinition(): Promise<{
  stateMachine: LocalStateMachine;
  synthesized: boolean;
}> {
  const synth = await ensureSynthesized({
    projectDir: PROJECT_DIR,
    stackName: STACK_NAME,
    cdkOutDir: LOCAL_SYNTH_DIR,
    synthesize: synthesizeForLocalRun,
  });
  // The ARN too: continue-as-new starts this same state machine, by ARN.
  const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(synth.template);
  return {
    stateMachine: { definition, stateMachineArn, functionTimeoutsMs },
    synthesized: synth.synthesized,
  };
}
