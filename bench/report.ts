/** The benchmark report: one row per metric, printed as a table and saved as JSON. */
import { arch, cpus, platform } from 'node:os';

export interface ReportRow {
  readonly metric: string;
  /** The measured figure, formatted with its unit. */
  readonly figure: string;
  readonly target: string;
  /**
   * Nomad's CLI figure where one exists, derived from its request pattern (`command/job_restart.go`
   * `handleAlloc`).
   */
  readonly nomadCli: string;
  /** `pass`, `MISS`, or `info` for rows without a target. */
  readonly verdict: 'pass' | 'MISS' | 'info';
}

export function machine(): string {
  return `node ${process.version}, ${platform()}/${arch()}, ${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}`;
}

export function verdict(ok: boolean | undefined): ReportRow['verdict'] {
  return ok === undefined ? 'info' : ok ? 'pass' : 'MISS';
}

export function formatTable(rows: readonly ReportRow[]): string {
  const header: ReportRow = {
    metric: 'metric',
    figure: 'measured',
    target: 'target',
    nomadCli: 'nomad CLI',
    verdict: 'info',
  };
  const cells = (r: ReportRow) => [
    r.metric,
    r.figure,
    r.target,
    r.nomadCli,
    r === header ? 'verdict' : r.verdict,
  ];
  const all = [header, ...rows].map(cells);
  const widths = all[0]?.map((_, i) => Math.max(...all.map((row) => row[i]?.length ?? 0))) ?? [];
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const [head, ...body] = all;
  return [line(head ?? []), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join(
    '\n',
  );
}

/** A small line chart (allocations on a log axis) of total time and Nomad requests. */
export function scalingSvg(points: readonly { allocations: number; ms: number; requests: number }[]): string {
  const W = 480;
  const H = 240;
  const pad = 40;
  const xs = points.map((p) => Math.log10(p.allocations));
  const [minX, maxX] = [Math.min(...xs), Math.max(...xs)];
  const x = (v: number) => pad + ((Math.log10(v) - minX) / Math.max(1e-9, maxX - minX)) * (W - 2 * pad);
  const series = (key: 'ms' | 'requests', color: string) => {
    const max = Math.max(...points.map((p) => p[key]), 1);
    const y = (v: number) => H - pad - (v / max) * (H - 2 * pad);
    const path = points.map((p) => `${x(p.allocations).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${color}" stroke-width="2" points="${path}"/>`;
  };
  const labels = points
    .map(
      (p) =>
        `<text x="${x(p.allocations).toFixed(1)}" y="${H - pad + 16}" font-size="11" text-anchor="middle">${p.allocations}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<title>Total time and Nomad requests against allocations, batch 10%</title>
<rect width="${W}" height="${H}" fill="white"/>
<text x="${W / 2}" y="18" font-size="13" text-anchor="middle">nomad-restart scaling, batch 10%: each line scaled to its own maximum</text>
${series('ms', '#1f77b4')}${series('requests', '#d62728')}${labels}
<text x="${pad}" y="34" font-size="11" fill="#1f77b4">total time (ms)</text>
<text x="${pad + 110}" y="34" font-size="11" fill="#d62728">Nomad requests</text>
<text x="${W / 2}" y="${H - 6}" font-size="11" text-anchor="middle">allocations (log scale)</text>
</svg>
`;
}
