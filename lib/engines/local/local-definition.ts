/**
 * The state machine the local engine runs: the app's own stack, synthesized in a child process
 * with bundling and the CDK's validation off (local-synth.ts), and
 * read out of the template with its ARN. In this repository it is synthesized again whenever a
 * source changed; the installed package has no CDK app to synthesize, so `npm run build` does it
 * once and ships the result (`dist/local-definition.json`).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPackagedFile } from '../../sea/packaged-file';
import { SynthesizedTemplateNotFoundError } from './errors';
import { launcherSaidPreparing } from './launcher-notice';
import {
  type ExtractedStateMachine,
  extractStateMachineDefinition,
  loadSynthesizedTemplate,
} from './template';

/** What the local engine runs: the definition, its ARN, and its functions' timeouts. */
export type LocalStateMachine = Pick<
  ExtractedStateMachine,
  'definition' | 'stateMachineArn' | 'functionTimeoutsMs'
>;

/**
 * The one-job state machine, and the fleet's beside it when the stack has one (a fleet's items
 * start the one-job state machine by its ARN, so the two always come from one template).
 */
export type LocalDefinitions = LocalStateMachine & { readonly fleet?: LocalStateMachine };

/** Logical id prefixes of the stack's state machines (`nomad-restart-workflow.ts`, the fleet construct). */
export const STATE_MACHINE_ID_PREFIXES = {
  restart: 'RestartStateMachine',
  fleet: 'FleetStateMachine',
} as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PROJECT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const STACK_NAME = 'NomadRestart';
/** Where the local synth lives: apart from `cdk.out`, whose template carries bundled assets. */
const LOCAL_SYNTH_DIR = join('.nomad-restart', 'synth');

/**
 * Synthesizes the stack for local use (once, while sources are unchanged) with bundling off:
 * the local engine binds handlers by state name, so the Lambda assets are never needed, and
 * the definition is the same one `cdk synth` renders.
 *
 * Not checked with asl-validator here nor by the engine (ajv compiling its schemas was 1.3 s of
 * CPU, a third of a first run's preparation): these definitions come from the project's own CDK
 * app, whose tests check both with asl-validator on every change
 * (test/constructs/workflow-stack.test.ts, test/constructs/fleet-stack.test.ts). The engine
 * still checks every definition a caller hands it (`LocalRestartRequest.stateMachine`: another
 * stack's, a test's), which nothing else has.
 */
async function synthesizeForLocalRun(projectDir: string, outDir: string): Promise<void> {
  // Imported here: an installed package never synthesizes (see loadLocalDefinition).
  const [{ mkdir, rename, rm }, { runLocalCdkApp }] = await Promise.all([
    import('node:fs/promises'),
    import('./local-synth'),
  ]);
  // Concurrent first runs (tests, two terminals) each synthesize into their own folder and
  // then rename the template into place, which is atomic: a reader never sees half a file.
  const scratch = `${outDir}.${process.pid}.${randomUUID()}`;
  try {
    await runLocalCdkApp(projectDir, scratch);
    await mkdir(outDir, { recursive: true });
    const template = `${STACK_NAME}.template.json`;
    await rename(join(scratch, template), join(outDir, template));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The part of a template the local engine keeps. The ARN too: continue-as-new starts this same state machine, by ARN. */
function localStateMachineOf(template: unknown, logicalIdPrefix: string): LocalStateMachine {
  const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template, {
    logicalIdPrefix,
  });
  return { definition, stateMachineArn, functionTimeoutsMs };
}

function hasStateMachine(template: unknown, logicalIdPrefix: string): boolean {
  const resources = isRecord(template) && isRecord(template['Resources']) ? template['Resources'] : {};
  return Object.entries(resources).some(
    ([id, resource]) =>
      id.startsWith(logicalIdPrefix) &&
      isRecord(resource) &&
      resource['Type'] === 'AWS::StepFunctions::StateMachine',
  );
}

/** The one-job state machine of a template, and the fleet's when the template has one. */
function localDefinitionsOf(template: unknown): LocalDefinitions {
  const restart = localStateMachineOf(template, STATE_MACHINE_ID_PREFIXES.restart);
  if (!hasStateMachine(template, STATE_MACHINE_ID_PREFIXES.fleet)) return restart;
  return { ...restart, fleet: localStateMachineOf(template, STATE_MACHINE_ID_PREFIXES.fleet) };
}

/**
 * What a terminal says while the state machine is synthesized again, when the launcher has not
 * already said it prepares it (a change to `cdk.json` only, a run not started by
 * `bin/nomad-restart.js`): 2 to 4 s on the 2-core machine (docs/benchmarks.md, "Build and first run").
 */
export const PREPARING_STATE_MACHINE = 'Preparing the state machine (first run after a change, about 3 s)...';

/** Where the package carries the definition `npm run build` synthesized, relative to its root. */
export const SHIPPED_DEFINITION_FILE = join('dist', 'local-definition.json');

/**
 * Synthesizes the project's stack as a local run reads it, without caching it: what
 * `npm run build` ships as `SHIPPED_DEFINITION_FILE`.
 */
export async function synthesizeLocalStateMachine(
  projectDir: string = PROJECT_DIR,
): Promise<LocalDefinitions> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const outDir = await mkdtemp(join(tmpdir(), 'nomad-restart-synth-'));
  try {
    await synthesizeForLocalRun(projectDir, outDir);
    return localDefinitionsOf(await loadSynthesizedTemplate(outDir, STACK_NAME));
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Reads the definition the package shipped, refusing a file that is not one. */
function readShippedDefinition(path: string): LocalDefinitions {
  let shipped: unknown;
  try {
    shipped = JSON.parse(readPackagedFile(path));
  } catch (error) {
    throw new SynthesizedTemplateNotFoundError(`cannot read the shipped definition ${path}`, {
      cause: error,
    });
  }
  const restart = shippedStateMachine(shipped);
  const fleet =
    isRecord(shipped) && shipped['fleet'] !== undefined ? shippedStateMachine(shipped['fleet']) : undefined;
  if (restart === undefined || (isRecord(shipped) && shipped['fleet'] !== undefined && fleet === undefined)) {
    throw new SynthesizedTemplateNotFoundError(
      `${path} is not a shipped definition: want {definition, stateMachineArn, functionTimeoutsMs} (and the same as fleet); reinstall the package`,
    );
  }
  return fleet === undefined ? restart : { ...restart, fleet };
}

/** A state machine as the package ships it, or `undefined` when `value` is not one. */
function shippedStateMachine(value: unknown): LocalStateMachine | undefined {
  const timeouts = isRecord(value) ? value['functionTimeoutsMs'] : undefined;
  if (
    !isRecord(value) ||
    !isRecord(value['definition']) ||
    typeof value['stateMachineArn'] !== 'string' ||
    !isRecord(timeouts) ||
    !Object.values(timeouts).every((ms) => typeof ms === 'number')
  ) {
    return undefined;
  }
  return {
    definition: value['definition'],
    stateMachineArn: value['stateMachineArn'],
    functionTimeoutsMs: timeouts as Record<string, number>,
  };
}

/**
 * The definition a local run executes: in this repository (where `bin/app.ts` is) the local
 * synth cache, synthesized again when a source changed; in the installed package, the one its
 * build shipped.
 * @param projectDir the repository or package root
 * @param onPreparing told {@link PREPARING_STATE_MACHINE} just before a synth starts, unless the
 *   launcher already told the terminal in this process that it prepares the state machine
 */
export async function loadLocalDefinition(
  projectDir: string = PROJECT_DIR,
  onPreparing: (what: string) => void = () => {},
): Promise<{ stateMachine: LocalDefinitions }> {
  if (!existsSync(join(projectDir, 'bin', 'app.ts'))) {
    return { stateMachine: readShippedDefinition(join(projectDir, SHIPPED_DEFINITION_FILE)) };
  }
  // Imported here, as the synth's own modules are: they spawn processes and write files, and
  // loading `node:child_process` (with `node:dgram`) and `node:fs/promises` (with Node's readline
  // modules) cost every run of the installed package, which reads a shipped definition, ~4 ms.
  const { ensureSynthesized } = await import('./synth');
  const synth = await ensureSynthesized({
    projectDir,
    stackName: STACK_NAME,
    cdkOutDir: join(projectDir, LOCAL_SYNTH_DIR),
    synthesize: (dir, outDir) => {
      if (!launcherSaidPreparing()) onPreparing(PREPARING_STATE_MACHINE);
      return synthesizeForLocalRun(dir, outDir);
    },
  });
  return { stateMachine: localDefinitionsOf(synth.template) };
}
