/**
 * The local engine: the state machine synthesized from the CDK stack, run in-process by
 * aws-local-stepfunctions, with every Task bound to the same `lambdas/*.ts` handler (through
 * its middy chain) that the Lambda runs on AWS. The Nomad client configuration (address, token,
 * TLS, region) reaches the handlers on their Lambda context, never through the execution input
 * or `process.env`; plan store, lock and approvals are the handlers' in-memory twins.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'aws-lambda';
import type { NomadClientConfig } from '../../nomad/config';
import type { ProgressEvent } from '../../restart/events';
import type { RestartInput } from '../../restart/input';
import { type LocalInvocation, withLocalInvocation } from '../../steps/local-invocation';
import type { ApprovalAnswer, AskEvent, WorkflowState } from '../../workflow/payloads';
import { ASK_STATE_NAME, TASK_STATE_HANDLERS, TaskStates } from '../../workflow/state-names';
import { SynthesisFailedError } from './errors';
import { runLocalExecution } from './runner';
import { ensureSynthesized } from './synth';
import { extractStateMachineDefinition } from './template';
import type { ExecutionResult, TaskHandler } from './types';

const PROJECT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const STACK_NAME = 'NomadRestart';
/** Where the local synth lives: apart from `cdk.out`, whose template carries bundled assets. */
const LOCAL_SYNTH_DIR = join(PROJECT_DIR, '.nomad-restart', 'synth');
/**
 * How long each local "invocation" may run. An await slice returns its cursor before this
 * (like a Lambda before its timeout) and the graph loops, exactly as on AWS.
 */
const LOCAL_INVOCATION_BUDGET_MS = 15 * 60 * 1000;

/** A line read from the terminal, or why none was read (the question's default then applies). */
export type PromptReply = { kind: 'answer'; text: string } | { kind: 'read-error'; text: string };

export interface LocalRestartRequest {
  /** The execution input (options only; no secret ever travels here). */
  readonly input: RestartInput;
  /**
   * The Nomad client configuration every handler uses, as the command resolved it.
   * @default - each handler resolves it from this process's `NOMAD_*` variables, as on Lambda
   */
  readonly nomad?: NomadClientConfig;
  /** Called with each progress event once, as it happens (a running step streams its events). */
  readonly emit: (event: ProgressEvent) => void;
  /**
   * Asks a question worded by the workflow and returns the reply. `invalidAnswer` is set when
   * the previous reply to this question was not understood (print Nomad's line, then ask again).
   */
  readonly prompt: (prompt: string, invalidAnswer: string | undefined) => Promise<PromptReply>;
  readonly signal?: AbortSignal;
  /** Called as each state is entered (tests and benchmarks count them). */
  readonly onStateEntered?: (name: string, type: string) => void;
  /** Called as each state is left (benchmarks time the steps with it). */
  readonly onStateExited?: (name: string) => void;
  /** Milliseconds to wait in the named Wait states instead of the definition's (tests). */
  readonly waitTimeOverrides?: Readonly<Record<string, number>>;
  /** Milliseconds between the named states' `Retry` attempts instead of the definition's (tests). */
  readonly retryIntervalOverrides?: Readonly<Record<string, number>>;
}

/**
 * Synthesizes the stack for local use (once, while sources are unchanged) with bundling off:
 * the local engine binds handlers by state name, so the Lambda assets are never needed, and
 * the definition is the same one `cdk synth` renders.
 */
async function synthesizeForLocalRun(projectDir: string, outDir: string): Promise<void> {
  // Concurrent first runs (tests, two terminals) each synthesize into their own folder and
  // then rename the template into place, which is atomic: a reader never sees half a file.
  const scratch = `${outDir}.${process.pid}.${randomUUID()}`;
  try {
    await runCdkApp(projectDir, scratch);
    await mkdir(outDir, { recursive: true });
    const template = `${STACK_NAME}.template.json`;
    await rename(join(scratch, template), join(outDir, template));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function runCdkApp(projectDir: string, outDir: string): Promise<void> {
  const tsx = join(projectDir, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, join(projectDir, 'bin', 'app.ts')], {
      cwd: projectDir,
      env: {
        ...process.env,
        CDK_OUTDIR: outDir,
        // The CDK CLI refuses `aws:` context keys from users, but the app reads this variable.
        CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [] }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) =>
      reject(new SynthesisFailedError('cannot run the CDK app', { cause: error })),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new SynthesisFailedError(`CDK app exited with code ${code}: ${stderr.trim()}`)),
    );
  });
}

/** The synthesized definition, read from the local synth cache when it is fresh. */
export async function loadLocalDefinition(): Promise<{ definition: object; synthesized: boolean }> {
  const synth = await ensureSynthesized({
    projectDir: PROJECT_DIR,
    stackName: STACK_NAME,
    cdkOutDir: LOCAL_SYNTH_DIR,
    synthesize: synthesizeForLocalRun,
  });
  const { definition } = extractStateMachineDefinition(synth.template);
  return { definition, synthesized: synth.synthesized };
}

function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + LOCAL_INVOCATION_BUDGET_MS;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;
const handlerCache = new Map<string, Promise<LambdaHandler>>();

/** The exported middy handler of `lambdas/<id>.ts`, imported once. */
function lambdaHandler(id: string): Promise<LambdaHandler> {
  let handler = handlerCache.get(id);
  if (handler === undefined) {
    handler = import(`../../../lambdas/${id}.ts`).then((m: { handler: LambdaHandler }) => m.handler);
    handlerCache.set(id, handler);
  }
  return handler;
}

function taskHandler(stateName: string, gate: Gate, invocation: LocalInvocation): TaskHandler | undefined {
  const id = TASK_STATE_HANDLERS[stateName];
  if (id === undefined || stateName === ASK_STATE_NAME) return undefined;
  return async (payload) => {
    await gate.passed();
    return (await lambdaHandler(id))(payload, withLocalInvocation(lambdaContext(id), invocation));
  };
}

/** Holds Tasks back while closed (the interrupt question is open): no new work starts. */
interface Gate {
  close(): void;
  open(): void;
  passed(): Promise<void>;
}

function createGate(): Gate {
  let opened: Promise<void> | undefined;
  let release = () => {};
  return {
    close: () => {
      opened ??= new Promise((resolve) => {
        release = resolve;
      });
    },
    open: () => {
      opened = undefined;
      release();
    },
    passed: async () => {
      while (opened) await opened;
    },
  };
}

/**
 * Every progress event once, as soon as it is known: live from a running step, or from a
 * state's output (Choice and Pass states repeat the last step's events; a step's result repeats
 * what it streamed).
 */
function eventSink(emit: (event: ProgressEvent) => void) {
  const seen = new Set<string>();
  const live = (event: ProgressEvent) => {
    const key = JSON.stringify(event);
    if (seen.has(key)) return;
    seen.add(key);
    emit(event);
  };
  const fromOutput = (output: unknown) => {
    const events = (output as Partial<WorkflowState> | null)?.events;
    if (Array.isArray(events)) for (const event of events) live(event);
  };
  return { live, fromOutput };
}

/** A local run: its result, and a cancel request honoured at the next safe point (spec §2.9). */
export interface LocalRestart {
  readonly result: Promise<ExecutionResult>;
  /** Flags a cancel on the job's lock; the workflow checks it before and after each batch. */
  requestCancel(): Promise<void>;
  /** Starts no new Task (a Task already running finishes) until `resume`. */
  pause(): void;
  resume(): void;
}

/**
 * Runs one restart through the synthesized state machine. Questions (`.waitForTaskToken` in
 * the ASL) are answered through `request.prompt`; a read error ends the wait like a timeout,
 * so the question's default applies (spec §2.8).
 */
export async function runRestartLocally(request: LocalRestartRequest): Promise<LocalRestart> {
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'SILENT';
  const { definition, synthesized } = await loadLocalDefinition();
  // The handlers' own in-memory lock: the same module instance the lambdas import.
  const { localStores } = await import('../../stores/from-env');
  const events = eventSink(request.emit);
  let lockKey: { namespace: string; jobId: string } | undefined;
  let cancelWanted = false;
  // A reply the workflow did not accept brings it straight back to the ask step: between a
  // valid reply and the next question some other Task always runs (see batch-loop.ts).
  let lastReply: string | undefined;
  const gate = createGate();
  const execution = runLocalExecution(definition, {
    input: request.input,
    validate: synthesized,
    taskHandlers: (state) =>
      taskHandler(state.stateName, gate, {
        liveEvents: events.live,
        ...(request.nomad === undefined ? {} : { nomad: request.nomad }),
      }),
    answerTaskToken: async (payload) => {
      await gate.passed();
      const ask = ((payload as { Payload?: AskEvent }).Payload ?? payload) as AskEvent;
      const reply = await request.prompt(ask.question.prompt, lastReply);
      if (reply.kind === 'read-error') {
        lastReply = undefined;
        // Same path as an unanswered question on AWS: the Catch on States.Timeout applies the default.
        throw Object.assign(new Error(reply.text), { name: 'States.Timeout' });
      }
      lastReply = reply.text;
      const answer: ApprovalAnswer = { answer: reply.text, answeredBy: 'terminal' };
      return answer;
    },
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.waitTimeOverrides === undefined ? {} : { waitTimeOverrides: request.waitTimeOverrides }),
    ...(request.retryIntervalOverrides === undefined
      ? {}
      : { retryIntervalOverrides: request.retryIntervalOverrides }),
    onStateEntered: (name, type) => {
      if (type === 'Task' && name !== ASK_STATE_NAME && name !== TaskStates.applyAnswer)
        lastReply = undefined;
      request.onStateEntered?.(name, type);
    },
    onStateExited: (name, output) => {
      const plan = (output as Partial<WorkflowState> | null)?.plan;
      if (plan && lockKey === undefined) {
        lockKey = { namespace: plan.namespace, jobId: plan.jobId };
        // An interrupt confirmed before the job was known is honoured as soon as it is.
        if (cancelWanted) void localStores.lock.requestCancel(lockKey);
      }
      events.fromOutput(output);
      request.onStateExited?.(name);
    },
  });
  return {
    result: execution.result,
    requestCancel: async () => {
      cancelWanted = true;
      if (lockKey !== undefined) await localStores.lock.requestCancel(lockKey);
    },
    pause: gate.close,
    resume: gate.open,
  };
}
