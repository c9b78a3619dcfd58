/**
 * One scale run of the local engine, in a process of its own so its peak memory is the engine's
 * alone (no CDK synthesis, no simulator, no other benchmark): argv is the simulator's address,
 * the state machine (a JSON file), the allocations, the batch size and `reschedule` or `in-place`.
 * Prints the run's figures as one JSON line.
 */
import { readFileSync } from 'node:fs';
import { runRestartLocally } from '../lib/engines/local/engine';
import type { LocalStateMachine } from '../lib/engines/local/local-definition';
import { toRestartInput, validateRestartInput } from '../lib/restart/input';

const [address = '', machineFile = '', allocations = '0', batchSize = '1', mode = 'in-place'] =
  process.argv.slice(2);
process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
const reschedule = mode === 'reschedule';
const options = validateRestartInput(
  { job: 'scale', batchSize, yes: true, reschedule, noShutdownDelay: reschedule },
  { interactive: false },
);
const started = performance.now();
const run = await runRestartLocally({
  input: toRestartInput(options),
  nomad: { address },
  emit: () => undefined,
  prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
  stateMachine: JSON.parse(readFileSync(machineFile, 'utf8')) as LocalStateMachine,
});
const result = await run.result;
process.stdout.write(
  `${JSON.stringify({
    allocations: Number(allocations),
    batchSize: Number(batchSize),
    reschedule,
    status: result.status,
    executions: result.stats.executions,
    maxPayloadBytes: result.stats.maxPayloadBytes,
    maxHistoryEvents: result.stats.maxHistoryEvents,
    // Kilobytes on Linux: the process's peak resident memory over its whole life.
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    wallMs: performance.now() - started,
  })}\n`,
);
