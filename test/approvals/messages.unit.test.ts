/**
 * What chat shows: the answers each question accepts (Nomad's `command/job_restart.go`
 * `shouldProceed`), the message before and after the decision, its Block Kit rendering, and the
 * notifier keeping each channel's message in step with the item, once per change.
 */
import { readFileSync } from 'node:fs';
import {
  answerChoices,
  type ChatChannel,
  type ChatMessage,
  closeOpenQuestions,
  executionConsoleUrl,
  questionMessage,
  slackBlocks,
  syncQuestionMessages,
} from '../../lib/approvals';
import { EXECUTION, parkedQuestion, storeWith } from './helpers/approvals';

/** The Block Kit question docs/approvals.md shows, as JSON. */
function slackQuestionInDoc(): unknown {
  const doc = readFileSync('docs/approvals.md', 'utf8');
  const block = /as Slack receives it:\n\n```json\n([\s\S]*?)\n```\n/.exec(doc)?.[1];
  if (block === undefined) throw new Error('docs/approvals.md shows no Slack question');
  return JSON.parse(block) as unknown;
}

describe('answerChoices', () => {
  it.each([
    {
      name: 'a batch-wait question',
      prompt: 'Proceed with the next batch? [Y/n/<wait duration>]',
      kind: 'proceed',
      replies: ['yes', 'no', '10s', '1m', '5m'],
      typed: true,
    },
    {
      name: 'an error question',
      prompt: 'Ignore the errors above and proceed with the next batch? [y/N]',
      kind: 'proceed',
      replies: ['yes', 'no'],
      typed: false,
    },
    {
      name: 'the multi-region question',
      prompt: 'Are you sure you want to restart multi-region job "web" in a single region? [y/N]',
      kind: 'multiregion',
      replies: ['yes', 'no'],
      typed: false,
    },
  ])('offers what Nomad accepts at $name', ({ prompt, kind, replies, typed }) => {
    // Act
    const answers = answerChoices({ approvalId: 'id', kind, prompt });

    // Assert
    expect(answers.choices.map((c) => c.reply)).toEqual(replies);
    expect(answers.freeText !== undefined).toBe(typed);
  });
});

describe('executionConsoleUrl', () => {
  it('links an execution ARN to its console page and gives none for a local run', () => {
    // Act
    const aws = executionConsoleUrl(EXECUTION);
    const local = executionConsoleUrl('arn:aws:states:local:000000000000:execution:NomadRestart-Restart:x');

    // Assert
    expect(aws).toBe(
      `https://eu-west-1.console.aws.amazon.com/states/home?region=eu-west-1#/v2/executions/details/${EXECUTION}`,
    );
    expect(local).toBeUndefined();
  });
});

describe('questionMessage and slackBlocks', () => {
  it('renders a question with errors as docs/approvals.md shows it', () => {
    // Arrange
    const q = parkedQuestion({
      approvalId: 'kPQd6yB4yF0Qm1c1Q2W3eA',
      prompt: 'Ignore the errors above and proceed with the next batch? [y/N]',
      summary:
        '1 error occurred while restarting job:\n* Error restarting allocation "3b0c5a1e": Unexpected response code: 500 (Task not running)',
    });

    // Act
    const blocks = slackBlocks(questionMessage(q));

    // Assert
    expect(blocks).toMatchSnapshot();
    expect(blocks).toEqual(slackQuestionInDoc());
    expect(JSON.stringify(blocks)).not.toContain(q.taskToken);
  });

  it('replaces the buttons by who answered what and when once decided', () => {
    // Arrange
    const q = parkedQuestion({
      decision: {
        decisionId: 'd',
        answer: '10s',
        answeredBy: 'alice (Slack U1)',
        via: 'slack',
        decidedAt: 1_700_000_000,
        outcome: 'delivered',
      },
    });

    // Act
    const message = questionMessage(q);

    // Assert
    expect(message.answers).toBeUndefined();
    expect(message.lines.at(-1)).toBe('alice (Slack U1) answered "10s" at 2023-11-14 22:13:20 UTC (slack).');
  });

  it('escapes Slack markup in what Nomad or the job put into the lines', () => {
    // Arrange
    const message: ChatMessage = { title: 't', lines: ['job <web> & co'] };

    // Act
    const blocks = slackBlocks(message);

    // Assert
    expect(JSON.stringify(blocks)).toContain('job &lt;web&gt; &amp; co');
  });
});

describe('syncQuestionMessages', () => {
  function recordingChannel(name: string, fail = false) {
    const sent: { kind: 'post' | 'update'; message: ChatMessage }[] = [];
    const channel: ChatChannel = {
      name,
      post: async (message) => {
        if (fail) throw new Error(`${name} is down`);
        sent.push({ kind: 'post', message });
        return { channel: name, ts: String(sent.length) };
      },
      update: async (ref, message) => {
        sent.push({ kind: 'update', message });
        return ref;
      },
    };
    return { channel, sent };
  }

  /** A parked question in a store, synced to one recording Slack channel. */
  async function parkedWithSlack() {
    const q = parkedQuestion();
    const store = await storeWith(q);
    const slack = recordingChannel('slack');
    return { q, store, slack, deps: { approvals: store, channels: [slack.channel] } };
  }

  it('posts a new question once and updates it once per settled decision', async () => {
    // Arrange
    const { q, store, slack, deps } = await parkedWithSlack();

    // Act
    await syncQuestionMessages(deps, q.approvalId);
    await syncQuestionMessages(deps, q.approvalId); // the stream's at-least-once delivery
    await store.decide(q.approvalId, {
      decisionId: 'd',
      answer: 'yes',
      answeredBy: 'bob',
      via: 'terminal',
      decidedAt: 1,
    });
    await syncQuestionMessages(deps, q.approvalId); // not settled yet: nothing to show
    await store.settleDecision(q.approvalId, 'd', 'delivered');
    await syncQuestionMessages(deps, q.approvalId);
    await syncQuestionMessages(deps, q.approvalId);

    // Assert
    expect(slack.sent.map((s) => s.kind)).toEqual(['post', 'update']);
    expect(slack.sent[1]?.message.lines.at(-1)).toMatch(/^bob answered "yes"/);
  });

  it('updates the message once the run ended with the question open, saying it is closed', async () => {
    // Arrange
    const { q, store, slack, deps } = await parkedWithSlack();
    await syncQuestionMessages(deps, q.approvalId);

    // Act: the stale-lock rule closes it; the stream delivers the change (at least once).
    await closeOpenQuestions(store, q.executionId, 'run-ended', () => 1_700_000_000_000);
    await syncQuestionMessages(deps, q.approvalId);
    await syncQuestionMessages(deps, q.approvalId);

    // Assert
    expect(slack.sent.map((s) => s.kind)).toEqual(['post', 'update']);
    expect(slack.sent[1]?.message.lines.at(-1)).toBe(
      'The run ended before anyone answered: the question was closed at 2023-11-14 22:13:20 UTC.',
    );
    expect(slack.sent[1]?.message.answers).toBeUndefined();
  });

  it('still tells the other channels when one fails, then reports the failure for a retry', async () => {
    // Arrange
    const q = parkedQuestion();
    const store = await storeWith(q);
    const broken = recordingChannel('webhook', true);
    const slack = recordingChannel('slack');

    // Act
    const result = syncQuestionMessages(
      { approvals: store, channels: [broken.channel, slack.channel] },
      q.approvalId,
    );

    // Assert
    await expect(result).rejects.toThrow('webhook is down');
    expect(slack.sent).toHaveLength(1);
    expect((await store.get(q.approvalId)).messages?.['slack']?.shows).toBe('asked');
  });
});
