/**
 * Start-up of the `nomad-restart` command, as a user pays it: the real bin shim spawned as a
 * subprocess. Measures (1) the time to a printed validation error (target < 300 ms: nothing
 * heavy is loaded for it) and (2) the time from spawn to the first Nomad request with the
 * command bundle and the synthesized definition cached (target < 1 s). Prints numbers only.
 *
 *   npx tsx bench/cli-startup.ts [runs]
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'nomad-restart.js');
const RUNS = Number(process.argv[2] ?? 10);

function run(args: string[], env: NodeJS.ProcessEnv): { done: Promise<number>; kill(): void } {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
  return {
    done: new Promise((resolve) => child.on('close', (code) => resolve(code ?? -1))),
    kill: () => child.kill(),
  };
}

/** ms from spawn to exit for a bad -batch-size (the validation error path). */
async function validationError(): Promise<number> {
  const start = performance.now();
  await run(['-batch-size', '0', 'example'], { NOMAD_ADDR: 'http://127.0.0.1:9' }).done;
  return performance.now() - start;
}

/** ms from spawn to the first request reaching a stand-in Nomad on 127.0.0.1. */
async function firstRequest(): Promise<number> {
  let start = 0;
  let child: ReturnType<typeof run> | undefined;
  const first = new Promise<number>((resolve) => {
    const server = createServer((_req, res) => {
      resolve(performance.now() - start);
      res.writeHead(500).end('bench');
      server.close();
      child?.kill();
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      start = performance.now();
      child = run(['-yes', 'example'], { NOMAD_ADDR: `http://127.0.0.1:${port}` });
    });
  });
  const ms = await first;
  await child?.done;
  return ms;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(0)} ms, p90 ${at(0.9).toFixed(0)} ms, min ${at(0).toFixed(0)} ms`;
};

// One warm-up of each: builds the command bundle and the local synth if they are stale.
await validationError();
await firstRequest();
const validation: number[] = [];
const request: number[] = [];
for (let i = 0; i < RUNS; i++) {
  validation.push(await validationError());
  request.push(await firstRequest());
}
console.log(
  `nomad-restart start-up, ${RUNS} runs, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
);
console.log(`  validation error printed (target < 300 ms):        ${stats(validation)}`);
console.log(`  flags to first Nomad request (target < 1000 ms):   ${stats(request)}`);
