/**
 * Whether the launcher (bin/private/launch.js) already told the terminal, in this process, that
 * this first run prepares the command and its state machine. The launcher runs the command's
 * bundle in its own process (bin/private/run-bundle.cjs), so a flag on `globalThis` reaches the
 * engine; an environment variable would also reach every child process. One line on a first run
 * is what issue #41 asks for, so the engine then stays silent.
 */

/** The flag's key: the launcher sets `globalThis[Symbol.for(...)]` under the same name. */
export const LAUNCHER_NOTICE_KEY = Symbol.for('nomad-restart.launcher-said-preparing');

/** True when the launcher said, in this process, that it prepares the state machine. */
export function launcherSaidPreparing(): boolean {
  return (globalThis as Record<symbol, unknown>)[LAUNCHER_NOTICE_KEY] === true;
}
