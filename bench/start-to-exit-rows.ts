/**
 * The arithmetic of the start-to-exit bench, apart from its subprocesses: the order of each
 * round, the medians of a case, and its report rows with the ratios to the `nomad` CLI.
 */
import type { ReportRow } from './report';
import type { TimedRun } from './timed-run';

/** Ours may take at most this many times the `nomad` CLI's median CPU and wall (issue #41). */
export const RATIO_TARGET = 2;

/** One run of one command: its cost and the requests the counting proxy saw. */
export interface Measured {
  readonly run: TimedRun;
  readonly requests: number;
}

/** One command's runs of one case. */
export interface Summary {
  readonly runs: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  /** The distinct request counts, e.g. `4` or `15/16` (a watch answered more or less often). */
  readonly requests: string;
  /** The distinct exit codes, e.g. `1`. */
  readonly codes: string;
}

/** The middle value (the upper of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

const distinct = (values: readonly number[]) => [...new Set(values)].sort((a, b) => a - b).join('/');

/** Medians of CPU and wall, and the distinct request counts and exit codes. */
export function summarise(measured: readonly Measured[]): Summary {
  return {
    runs: measured.length,
    cpuMs: median(measured.map((m) => m.run.cpuMs)),
    wallMs: median(measured.map((m) => m.run.wallMs)),
    requests: distinct(measured.map((m) => m.requests)),
    codes: distinct(measured.map((m) => m.run.code)),
  };
}

/**
 * The commands in the order round `round` runs them: rotated by one each round (ABC, BCA, CAB),
 * so each command runs right after each other one and none is always first after a pause — a
 * load that comes and goes falls on all of them alike.
 */
export function roundOrder<T>(commands: readonly T[], round: number): T[] {
  const shift = commands.length === 0 ? 0 : round % commands.length;
  return [...commands.slice(shift), ...commands.slice(0, shift)];
}

/** The `nomad` CLI's summary for a case and its version, or why it was not run. */
export type NomadResult =
  | { readonly version: string; readonly summary: Summary }
  | { readonly notRun: string };

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const plural = (count: string) => `${count} request${count === '1' ? '' : 's'}`;

/** `CPU 0.130 s, wall 0.152 s, 4 requests` */
export function describeSummary(s: Summary): string {
  return `CPU ${seconds(s.cpuMs)}, wall ${seconds(s.wallMs)}, ${plural(s.requests)}`;
}

/**
 * One row per command of ours for a case: its medians, and beside the `nomad` CLI's (when run)
 * the ratios ours / nomad of CPU and wall, `pass` when both are within {@link RATIO_TARGET}.
 */
export function caseRows(
  caseName: string,
  ours: readonly { readonly label: string; readonly summary: Summary }[],
  nomad: NomadResult,
): ReportRow[] {
  return ours.map(({ label, summary }) => {
    const metric = `start to exit, ${caseName}, ${label} (median of ${summary.runs}; exit ${summary.codes})`;
    const target = `≤ ${RATIO_TARGET}× nomad's CPU and wall`;
    if ('notRun' in nomad)
      return { metric, figure: describeSummary(summary), target, nomadCli: nomad.notRun, verdict: 'info' };
    const cpu = summary.cpuMs / nomad.summary.cpuMs;
    const wall = summary.wallMs / nomad.summary.wallMs;
    return {
      metric,
      figure: `${describeSummary(summary)}; ours / nomad: CPU ${cpu.toFixed(2)}×, wall ${wall.toFixed(2)}×`,
      target,
      nomadCli: `${nomad.version}: ${describeSummary(nomad.summary)} (exit ${nomad.summary.codes})`,
      verdict: cpu <= RATIO_TARGET && wall <= RATIO_TARGET ? 'pass' : 'MISS',
    };
  });
}
