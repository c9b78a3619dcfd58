/**
 * Synthesizes the CDK app for the local engine, again only when a source it depends on changed.
 */
import { spawn } from 'node:child_process';
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SynthesisFailedError } from './errors';
import { loadSynthesizedTemplate } from './template';

/**
 * What a synthesized template depends on, relative to the project: the CDK app, the constructs
 * and the handlers it bundles, the CDK settings and the locked dependency versions.
 */
export const DEFAULT_SYNTH_SOURCES: readonly string[] = [
  'lib',
  'lambdas',
  'bin/app.ts',
  'cdk.json',
  'package-lock.json',
];

/** Options of `ensureSynthesized`. */
export interface EnsureSynthesizedOptions {
  /** The project root (where `cdk.json` is). */
  readonly projectDir: string;
  /** The stack whose template is read: `<cdkOutDir>/<stackName>.template.json`. */
  readonly stackName: string;
  /**
   * Where the cloud assembly is written.
   * @default '<projectDir>/cdk.out'
   */
  readonly cdkOutDir?: string;
  /**
   * Files and folders (relative to `projectDir`) whose changes make the template stale.
   * @default DEFAULT_SYNTH_SOURCES
   */
  readonly sources?: readonly string[];
  /**
   * Produces the cloud assembly in `cdkOutDir`.
   * @default runCdkSynth - the project's `cdk synth` as a child process
   */
  readonly synthesize?: (projectDir: string, cdkOutDir: string) => Promise<void>;
}

/** A template ready to be read, and whether it had to be synthesized. */
export interface SynthesizedTemplate {
  readonly template: unknown;
  readonly templatePath: string;
  /** False when a fresh cached template was reused. */
  readonly synthesized: boolean;
}

function mtimeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
}

/**
 * True as soon as one file under `path` (skipping `node_modules` and dot folders) is newer than
 * `since`. Synchronous on purpose: every run of the command walks the sources (~200 entries),
 * and one thread-pool round trip per entry cost more than the walk itself.
 */
function hasNewerFile(path: string, since: number): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return (mtimeOf(path) ?? 0) > since;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory() ? hasNewerFile(child, since) : (mtimeOf(child) ?? 0) > since) return true;
  }
  return false;
}

/**
 * Whether `templatePath` exists and is at least as new as every source file.
 * @param sources paths relative to `projectDir`; missing ones are ignored
 */
export async function isTemplateFresh(
  templatePath: string,
  projectDir: string,
  sources: readonly string[] = DEFAULT_SYNTH_SOURCES,
): Promise<boolean> {
  const templateTime = mtimeOf(templatePath);
  if (templateTime === undefined) return false;
  return !sources.some((source) => hasNewerFile(join(projectDir, source), templateTime));
}

/**
 * Runs `cdk synth` for the project as a child process, with notices and telemetry off (the
 * machine may be offline). A child process, rather than the CDK App in-process, because it is
 * exactly what CI and `npm run synth` do (the `app` command and context from `cdk.json`), and it
 * keeps aws-cdk-lib's load time and esbuild bundling out of the CLI process, which only reads the
 * template.
 * @throws SynthesisFailedError with the end of cdk's stderr
 */
export function runCdkSynth(projectDir: string, cdkOutDir: string): Promise<void> {
  const cdk = join(projectDir, 'node_modules', 'aws-cdk', 'bin', 'cdk');
  const args = [cdk, 'synth', '--quiet', '--no-notices', '--output', cdkOutDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: projectDir,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) => reject(new SynthesisFailedError(`cannot run ${cdk}`, { cause: error })));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new SynthesisFailedError(`cdk synth exited with code ${code}: ${stderr.trim()}`));
    });
  });
}

/**
 * Returns the stack's synthesized template, reusing `cdk.out` when it is newer than every source
 * file and synthesizing (once) when it is missing or stale.
 */
export async function ensureSynthesized(options: EnsureSynthesizedOptions): Promise<SynthesizedTemplate> {
  const cdkOutDir = options.cdkOutDir ?? join(options.projectDir, 'cdk.out');
  const templatePath = join(cdkOutDir, `${options.stackName}.template.json`);
  const fresh = await isTemplateFresh(templatePath, options.projectDir, options.sources);
  if (!fresh) await (options.synthesize ?? runCdkSynth)(options.projectDir, cdkOutDir);
  return {
    template: await loadSynthesizedTemplate(cdkOutDir, options.stackName),
    templatePath,
    synthesized: !fresh,
  };
}
