/**
 * The run-end messages docs/notifications.md shows are what the code posts: each sample end (one per way a run
 * ends) rendered by the real message builder, as e-mail and Slack's notification text show it,
 * appears in that doc word for word (the console link, the same in every message, left out).
 */
import { readFileSync } from 'node:fs';
import { renderPlainText } from '../../lib/approvals/message';
import { runEndedMessage } from '../../lib/approvals/run-ended-message';
import { endOfExecution } from '../../lib/workflow/run-end';
import { RUN_END_SAMPLES } from './helpers/run-ended-samples';

const LINK = '\n\nOpen the execution in the Step Functions console: https://';

describe('the run-end messages of docs/notifications.md', () => {
  const doc = readFileSync('docs/notifications.md', 'utf8');

  it.each(RUN_END_SAMPLES.map((sample) => ({ ...sample })))(
    'shows the message of a run that $ending',
    (sample) => {
      // Arrange
      const end = endOfExecution(sample.ended, sample.record);
      if (end.kind !== 'ended') throw new Error('a sample that does not end its run');

      // Act
      const text = renderPlainText(runEndedMessage(end));

      // Assert
      expect(text).toContain(LINK);
      expect(doc).toContain(text.slice(0, text.indexOf(LINK)));
    },
  );
});
