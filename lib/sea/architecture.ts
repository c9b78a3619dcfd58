/**
 * The single executable's first check: Node's binary inside it runs on one architecture, and the
 * script injected into it (with its V8 code cache) was made for one too. The kernel itself refuses
 * an executable of another architecture ("Exec format error"); what reaches this check is an
 * executable whose recorded target is not the Node it runs in (a blob injected into the wrong
 * binary, a build script mixing downloads), which would otherwise fail later with a V8 or
 * loader error. The answer is one line naming the download that fits.
 */

/** The machine words `uname -m` gives, as Node's `process.arch` names them. */
const ARCH_OF_MACHINE: Readonly<Record<string, string>> = { x86_64: 'x64', amd64: 'x64', aarch64: 'arm64' };

/** The architectures a single executable is built for (scripts/build-sea.ts). */
export const SEA_ARCHES = ['x64', 'arm64'] as const;

/** What `npm run build:sea` names the executable for `arch`. */
export const seaFileName = (arch: string): string => `nomad-restart-linux-${arch}`;

/**
 * The line to print when an executable built for `target` runs where it does not fit, else
 * undefined.
 * @param target the architecture recorded in the executable at build time (`x64`, `arm64`)
 * @param arch Node's own architecture (`process.arch`)
 * @param machine the kernel's machine word (`os.machine()`), which an emulated Node can differ from
 * @param platform `process.platform`
 */
export function wrongArchitectureMessage(
  target: string,
  arch: string,
  machine: string,
  platform: string,
): string | undefined {
  const native = ARCH_OF_MACHINE[machine] ?? machine;
  if (platform === 'linux' && arch === target) return undefined;
  const here = `${platform} ${native}`;
  const fits = platform === 'linux' && (SEA_ARCHES as readonly string[]).includes(native);
  const instead = fits
    ? `download ${seaFileName(native)} instead`
    : 'no single executable is built for it: install the npm package (npx nomad-restart) instead';
  return `nomad-restart: this executable (${seaFileName(target)}) is built for linux ${target}, this machine is ${here}: ${instead}`;
}
