/**
 * Scenario: timestamps in the process's own zone (what the command prints: Nomad's `formatTime`
 * in local time) are read from the Date's local fields, not from an `Intl.DateTimeFormat`, which
 * costs ~12 ms of CPU to build. They must agree with the `Intl` path given the same zone by name,
 * across offsets with half and quarter hours and across daylight-saving changes. Jest gives a
 * test its own copy of `process.env`, so the zones are switched in a child Node process.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TEXT = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'lib', 'restart', 'text.ts'),
).href;

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/London',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
];
/** Around each zone's 2023 daylight-saving changes, a leap day, a year's end, and now-ish. */
const INSTANTS = [
  Date.UTC(2023, 2, 12, 6, 59, 59),
  Date.UTC(2023, 2, 12, 7, 0, 0),
  Date.UTC(2023, 10, 5, 5, 59, 59),
  Date.UTC(2023, 10, 5, 6, 0, 0),
  Date.UTC(2023, 2, 26, 0, 59, 59),
  Date.UTC(2023, 2, 26, 1, 0, 0),
  Date.UTC(2023, 3, 1, 14, 59, 59),
  Date.UTC(2023, 3, 1, 15, 0, 0),
  Date.UTC(2023, 8, 23, 13, 59, 59),
  Date.UTC(2023, 8, 23, 14, 0, 0),
  Date.UTC(2024, 1, 29, 12, 30, 45),
  Date.UTC(2025, 11, 31, 23, 59, 59),
  Date.UTC(2026, 10, 24, 20, 1, 30) + 999,
];

describe('formatTimestamp in the local zone', () => {
  it('agrees with the Intl path for the same zone by name', () => {
    // Arrange
    const script = `
      import { formatTimestamp } from ${JSON.stringify(TEXT)};
      const rows = [];
      for (const zone of ${JSON.stringify(ZONES)}) {
        process.env.TZ = zone;
        for (const t of ${JSON.stringify(INSTANTS)}) rows.push({ zone, local: formatTimestamp(t), named: formatTimestamp(t, zone) });
      }
      process.stdout.write(JSON.stringify(rows));`;

    // Act
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const rows = JSON.parse(child.stdout) as { zone: string; local: string; named: string }[];

    // Assert
    expect(rows).toHaveLength(ZONES.length * INSTANTS.length);
    expect(rows.filter((row) => row.local !== row.named)).toEqual([]);
    // The zones did change: the local path printed each zone's own offsets.
    expect(new Set(rows.map((row) => row.local.slice(19)))).toEqual(
      new Set(['Z', '-05:00', '-04:00', '+01:00', '+05:30', '+10:30', '+11:00', '+12:45', '+13:45']),
    );
  });
});
