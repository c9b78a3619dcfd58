/**
 * Scenario: `nomad-restart questions`, `approve` and `deny` in-process, against the approvals
 * table on a DynamoDB emulator (the deployed table's keys and indexes) and a faked Step
 * Functions. `questions` lists what is pending (never a task token); `approve` and `deny` answer
 * through the one decision: exactly one SendTaskSuccess, the reply read as Nomad reads it. An
 * unknown id, a bad reply, a run that had ended and a question decided first each get a clear
 * message and exit code 1, and change nothing. `approve` racing a signed Slack press for one
 * question: exactly one SendTaskSuccess, and the loser is told who decided what.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { runApproveCommand, runDenyCommand } from '../../../lib/cli/commands/answer-command';
import { runQuestionsCommand } from '../../../lib/cli/commands/questions-command';
import { operatorName } from '../../../lib/cli/terminal/operator';
import { type Approval, DynamoDbApprovalStore } from '../../../lib/stores';
import { emulatedApprovalsTable, parkedOn, pressSlackButton } from '../../engines/aws/helpers/chat-fixtures';
import { FakeStepFunctions } from '../../engines/aws/helpers/fake-step-functions';
import { execArn, fakeTerminal, MACHINE } from '../../engines/aws/helpers/fixtures';
import { bindToSdkMock } from '../../engines/aws/helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const RUN = execArn('run-1');
const OTHER_MACHINE_RUN = 'arn:aws:states:eu-west-1:123456789012:execution:Other-Restart:run-9';

const emulated = emulatedApprovalsTable();
let fake: FakeStepFunctions;

beforeEach(async () => {
  fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
});
afterEach(() => sfn.reset());

type Command = typeof runQuestionsCommand;

/** Runs a command with the table's variable set and the emulator's client. */
async function run(
  command: Command,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  dynamodb = emulated.db.client,
) {
  const tty = fakeTerminal();
  tty.streams.stdin.isTTY = false;
  const exitCode = await command(args, {
    ...tty.streams,
    env: { NOMAD_RESTART_APPROVALS_TABLE: emulated.table, ...env },
    awsClients: { dynamodb },
  });
  return { exitCode, stdout: tty.output().replace(tty.stderr(), ''), stderr: tty.stderr() };
}

const sent = () =>
  fake
    .received('SendTaskSuccess')
    .map((i) => ({ taskToken: i['taskToken'], ...JSON.parse(String(i['output'])) }));

async function parked(...approvals: Approval[]): Promise<Approval[]> {
  for (const a of approvals) await emulated.store.put(a);
  return approvals;
}

describe('nomad-restart questions', () => {
  it('lists the pending questions, oldest first, without a task token', async () => {
    // Arrange
    const [older, newer] = await parked(
      parkedOn(RUN, 'token-1', {}, 192),
      parkedOn(OTHER_MACHINE_RUN, 'token-2', {
        jobId: 'api',
        namespace: 'prod',
        prompt: `The errors above are likely to happen again.\n${' '.repeat(31)}Ignore them anyway and proceed with the next batch? [y/N]`,
      }),
    );
    const [decided] = await parked(parkedOn(RUN, 'token-4'));
    await emulated.store.decide(decided?.approvalId ?? '', {
      decisionId: 'd',
      answer: 'yes',
      answeredBy: 'bob',
      via: 'slack',
      decidedAt: 1,
    });

    // Act
    const { exitCode, stdout } = await run(runQuestionsCommand, []);

    // Assert
    const rows = stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID {22}Job +Namespace +Question +Age +Execution$/);
    expect(rows[1]).toMatch(
      new RegExp(
        `^${older?.approvalId}  example +default +Proceed with the next batch\\? \\[Y/n/<wait duration>\\] +3m1\\ds +${RUN}$`,
      ),
    );
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(
      new RegExp(
        `^${newer?.approvalId}  api +prod +The errors above are likely to happen again\\. Ignore them anyway and proceed with the next batch\\? \\[y/N\\] +\\d+s +${OTHER_MACHINE_RUN}$`,
      ),
    );
    expect(stdout).not.toContain(decided?.approvalId);
    expect(stdout).not.toContain('token-');
    expect(exitCode).toBe(0);
  });

  it('lists only one state machine’s questions with -state-machine-arn', async () => {
    // Arrange
    const [mine] = await parked(parkedOn(RUN, 'token-1'), parkedOn(OTHER_MACHINE_RUN, 'token-2'));

    // Act
    const { exitCode, stdout } = await run(runQuestionsCommand, ['-state-machine-arn', MACHINE]);

    // Assert
    const rows = stdout.trimEnd().split('\n');
    expect(rows.slice(1).map((r) => r.split(' ')[0])).toEqual([mine?.approvalId]);
    expect(exitCode).toBe(0);
  });

  it('says so when nothing is pending', async () => {
    // Act
    const { exitCode, stdout } = await run(runQuestionsCommand, []);

    // Assert
    expect(stdout).toBe('No questions pending\n');
    expect(exitCode).toBe(0);
  });

  it.each([
    {
      name: 'without the table variable',
      args: [],
      env: { NOMAD_RESTART_APPROVALS_TABLE: '' },
      expectedErr:
        'nomad-restart questions reads the approvals table: set NOMAD_RESTART_APPROVALS_TABLE to its name (the stack output ApprovalsTableName)',
    },
    { name: 'with an argument', args: ['extra'], env: {}, expectedErr: 'This command takes no arguments' },
    {
      name: 'with a bad ARN',
      args: ['-state-machine-arn', RUN],
      env: {},
      expectedErr: `Invalid -state-machine-arn value "${RUN}"`,
    },
    {
      name: 'with an unknown flag',
      args: ['-json'],
      env: {},
      expectedErr: 'flag provided but not defined: -json',
    },
  ])('fails $name, with its usage', async ({ args, env, expectedErr }) => {
    // Act
    const { exitCode, stderr } = await run(runQuestionsCommand, args, env);

    // Assert
    expect(stderr.startsWith(expectedErr)).toBe(true);
    expect(stderr).toContain('Usage: nomad-restart questions [options]');
    expect(exitCode).toBe(1);
  });
});

describe('nomad-restart approve and deny', () => {
  it.each([
    { name: 'approve <id>', command: runApproveCommand, reply: [], answer: 'yes' },
    { name: 'approve <id> 10s', command: runApproveCommand, reply: ['10s'], answer: '10s' },
    { name: 'approve <id> N', command: runApproveCommand, reply: ['N'], answer: 'no' },
    { name: 'deny <id>', command: runDenyCommand, reply: [], answer: 'no' },
  ])('answers with $name through the one decision', async ({ command, reply, answer }) => {
    // Arrange
    const [q] = await parked(parkedOn(RUN, 'token-1'));
    const id = q?.approvalId ?? '';

    // Act
    const { exitCode, stdout, stderr } = await run(command, [id, ...reply]);

    // Assert
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(sent()).toEqual([{ taskToken: 'token-1', answer, answeredBy: operatorName() }]);
    expect((await emulated.store.get(id)).decision).toMatchObject({
      answer,
      via: 'terminal',
      outcome: 'delivered',
    });
    expect(stdout).toMatch(
      new RegExp(
        `^Question "${id}" \\(job "example" in namespace "default"\\): ${operatorName()} answered "${answer}" at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\(terminal\\)\\.\\n$`,
      ),
    );
  });

  it('refuses a reply the question does not take, and leaves it open', async () => {
    // Arrange: a question asked after errors, without a wait duration.
    const [q] = await parked(
      parkedOn(RUN, 'token-1', { prompt: 'Ignore the errors above and proceed with the next batch? [y/N]' }),
    );
    const id = q?.approvalId ?? '';

    // Act
    const { exitCode, stderr } = await run(runApproveCommand, [id, '10s']);

    // Assert
    expect(stderr).toBe('Invalid answer "10s": the question takes y/N\n');
    expect(sent()).toEqual([]);
    expect((await emulated.store.get(id)).decision).toBeUndefined();
    expect(exitCode).toBe(1);
  });

  it('says no question has an unknown id', async () => {
    // Act
    const { exitCode, stderr } = await run(runApproveCommand, ['kPQd6yB4yF0Qm1c1Q2W3eA']);

    // Assert
    expect(stderr).toBe('No question with id "kPQd6yB4yF0Qm1c1Q2W3eA"\n');
    expect(sent()).toEqual([]);
    expect(exitCode).toBe(1);
  });

  it('says the run had already finished when Step Functions no longer waits on the question', async () => {
    // Arrange
    const [q] = await parked(parkedOn(RUN, 'token-1'));
    const id = q?.approvalId ?? '';
    fake.faults.push(({ operation }) =>
      operation === 'SendTaskSuccess'
        ? { name: 'TaskDoesNotExist', message: 'Task does not exist' }
        : undefined,
    );

    // Act
    const { exitCode, stderr } = await run(runDenyCommand, [id]);

    // Assert
    expect(stderr).toMatch(/, but the run had already finished: nothing changed\.\n$/);
    expect((await emulated.store.get(id)).decision?.outcome).toBe('run-finished');
    expect(exitCode).toBe(1);
  });

  it('tells a later answer who decided what, and sends nothing', async () => {
    // Arrange
    const [q] = await parked(parkedOn(RUN, 'token-1'));
    const id = q?.approvalId ?? '';
    await pressSlackButton(emulated.store, id, '10s');

    // Act
    const { exitCode, stderr } = await run(runDenyCommand, [id]);

    // Assert
    expect(stderr).toMatch(
      new RegExp(
        `^Question "${id}" was already decided: alice \\(Slack U1\\) answered "10s" at .+ UTC \\(slack\\)\\.\\n$`,
      ),
    );
    expect(sent().map((s) => s.answer)).toEqual(['10s']);
    expect(exitCode).toBe(1);
  });

  it('decides first, and a later Slack press is told who decided what, and sends nothing', async () => {
    // Arrange
    const [q] = await parked(parkedOn(RUN, 'token-1'));
    const id = q?.approvalId ?? '';
    const approved = await run(runApproveCommand, [id, '1m']);

    // Act
    const slack = await pressSlackButton(emulated.store, id, 'no');

    // Assert
    expect({ code: approved.exitCode, stderr: approved.stderr }).toEqual({ code: 0, stderr: '' });
    expect(slack.statusCode).toBe(200);
    expect(slack.told).toEqual([
      expect.stringMatching(
        new RegExp(`^Already decided: ${operatorName()} answered "1m0s" at .+ UTC \\(terminal\\)\\.$`),
      ),
    ]);
    expect(sent().map((s) => s.answer)).toEqual(['1m0s']);
  });

  it.each([
    {
      name: 'approve without an id',
      command: runApproveCommand,
      args: [],
      expectedErr: 'This command takes one or two arguments: <id> [yes|no|<duration>]',
      usage: 'Usage: nomad-restart approve <id> [yes|no|<duration>]',
    },
    {
      name: 'approve with three arguments',
      command: runApproveCommand,
      args: ['a', 'yes', 'b'],
      expectedErr: 'This command takes one or two arguments: <id> [yes|no|<duration>]',
      usage: 'Usage: nomad-restart approve',
    },
    {
      name: 'deny with a reply',
      command: runDenyCommand,
      args: ['a', 'yes'],
      expectedErr: 'This command takes one argument: <id>',
      usage: 'Usage: nomad-restart deny <id>',
    },
  ])('refuses $name, with its usage', async ({ command, args, expectedErr, usage }) => {
    // Act
    const { exitCode, stderr } = await run(command, args);

    // Assert
    expect(stderr.split('\n')[0]).toBe(expectedErr);
    expect(stderr).toContain(usage);
    expect(exitCode).toBe(1);
  });

  it('prints its help on stdout with -help', async () => {
    // Act
    const { exitCode, stdout } = await run(runApproveCommand, ['-help']);

    // Assert
    expect(stdout).toMatch(/^Usage: nomad-restart approve <id> \[yes\|no\|<duration>\]\n/);
    expect(stdout).toContain('states:SendTaskSuccess');
    expect(exitCode).toBe(0);
  });
});

/**
 * Holds each decision's conditional write, signed and about to be written to the socket, until
 * `parties` of them are there, then lets them all go at once: both are in flight together, and
 * the emulator's conditional write decides, not who started first.
 */
const RACE_GRACE_MS = 10_000;

function decisionBarrier(parties: number) {
  const waiting: (() => void)[] = [];
  let held = 0;
  const hold = (client: DynamoDBClient) => {
    // At the HTTP handler: the request is signed and about to be written to the socket.
    const handler = client.config.requestHandler as {
      handle: (request: { body?: unknown }, options?: unknown) => Promise<unknown>;
    };
    const send = handler.handle.bind(handler);
    handler.handle = async (request, options) => {
      // The SDK's JSON body is bytes that also act as a string; read it as bytes.
      const body = request.body instanceof Uint8Array ? new TextDecoder().decode(request.body) : request.body;
      if (String(body ?? '').includes('attribute_not_exists(decision)')) {
        held += 1;
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === parties) for (const release of waiting.splice(0)) release();
          // A party that never writes must fail the test's count, not hang it.
          setTimeout(resolve, RACE_GRACE_MS).unref();
        });
      }
      return send(request, options);
    };
    return client;
  };
  return { hold, held: () => held };
}

describe('approve racing a Slack press for one question', () => {
  it.each([1, 2, 3, 4, 5])(
    'sends exactly one SendTaskSuccess and tells the loser who decided (round %i)',
    async () => {
      // Arrange: each side with a DynamoDB client of its own, both writes released together.
      const [q] = await parked(parkedOn(RUN, 'token-1'));
      const id = q?.approvalId ?? '';
      const barrier = decisionBarrier(2);
      const slackStore = new DynamoDbApprovalStore(barrier.hold(emulated.db.newClient()), emulated.table);

      // Act
      const [terminal, slack] = await Promise.all([
        run(runApproveCommand, [id, 'no'], {}, barrier.hold(emulated.db.newClient())),
        pressSlackButton(slackStore, id, 'yes'),
      ]);

      // Assert
      expect(barrier.held()).toBe(2);
      expect(sent()).toHaveLength(1);
      const decision = (await emulated.store.get(id)).decision;
      expect(decision?.outcome).toBe('delivered');
      expect(slack.statusCode).toBe(200);
      if (decision?.via === 'terminal') {
        expect(sent()[0]?.answer).toBe('no');
        expect(terminal.exitCode).toBe(0);
        expect(slack.told).toEqual([
          expect.stringMatching(
            new RegExp(`^Already decided: ${operatorName()} answered "no" at .+ \\(terminal\\)\\.$`),
          ),
        ]);
      } else {
        expect(sent()[0]?.answer).toBe('yes');
        expect(terminal.exitCode).toBe(1);
        expect(terminal.stderr).toMatch(
          /was already decided: alice \(Slack U1\) answered "yes" at .+ \(slack\)\.\n$/,
        );
        expect(slack.told).toEqual([]);
      }
    },
  );
});
