/**
 * Reads embedded-metric-format lines back, as CloudWatch Logs does: each line's directive
 * (`_aws.CloudWatchMetrics`) and the values it names.
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 */

/** One metric an EMF line defines, with its value and its dimensions' values. */
export interface EmfMetric {
  readonly namespace: string;
  readonly name: string;
  readonly unit: string;
  /** Each dimension set, as `name=value` pairs. */
  readonly dimensions: readonly Readonly<Record<string, string>>[];
  /** The value (an array when a line carries several of the same metric). */
  readonly value: number | number[];
  /** The line's properties that are neither metrics nor dimensions (metadata). */
  readonly line: Readonly<Record<string, unknown>>;
}

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}

/** Every metric of `lines` (JSON texts); throws on a line that is not an EMF document. */
export function parseEmf(lines: readonly string[]): EmfMetric[] {
  return lines.flatMap((text) => {
    const line = JSON.parse(text) as Record<string, unknown> & { _aws?: { CloudWatchMetrics?: Directive[] } };
    const directives = line._aws?.CloudWatchMetrics;
    if (!Array.isArray(directives)) throw new Error(`Not an EMF line: ${text}`);
    return directives.flatMap((d) =>
      d.Metrics.map((m) => ({
        namespace: d.Namespace,
        name: m.Name,
        unit: m.Unit,
        dimensions: d.Dimensions.map((set) => Object.fromEntries(set.map((k) => [k, String(line[k])]))),
        value: line[m.Name] as number | number[],
        line,
      })),
    );
  });
}

/** The sum of metric `name`'s values over `metrics`. */
export function sumOf(metrics: readonly EmfMetric[], name: string): number {
  return metrics
    .filter((m) => m.name === name)
    .flatMap((m) => (Array.isArray(m.value) ? m.value : [m.value]))
    .reduce((a, b) => a + b, 0);
}
