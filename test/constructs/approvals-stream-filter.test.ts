/**
 * The approvals stream's filters, read as Lambda reads them (a record passes when any filter
 * matches; a `prefix` rule matches a string starting with it): every approval id gets through,
 * whatever it starts with, and no replay-guard key does; each pattern stays within Lambda's
 * limits (5 filters, 4,096 characters each); a notifier of the user's own gets them too.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import fc from 'fast-check';
import { NomadRestartWorkflow } from '../../lib/constructs/nomad-restart-workflow';
import {
  prefixesNotStartingWith,
  questionRecordPatterns,
} from '../../lib/constructs/private/approvals-stream-filter';
import { isApprovalId, newApprovalId } from '../../lib/stores/approval-store';
import { REPLAY_KEY_PREFIX } from '../../lib/stores/replay-guard';

type Pattern = {
  eventName: string[];
  dynamodb: { Keys: { approvalId: { S: { prefix: string }[] } } };
};

const patterns = questionRecordPatterns('approvalId', ['INSERT', 'MODIFY']);

/** Whether Lambda would pass a KEYS_ONLY record of `eventName` with key `approvalId`. */
function passes(eventName: string, approvalId: string): boolean {
  return patterns
    .map((p) => JSON.parse(p) as Pattern)
    .some(
      (p) =>
        p.eventName.includes(eventName) &&
        p.dynamodb.Keys.approvalId.S.some(({ prefix }) => approvalId.startsWith(prefix)),
    );
}

const ID_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Any string `isApprovalId` accepts: 22 id characters (a shorter key such as "s" is no approval id). */
const idLike = fc.string({ unit: fc.constantFrom(...ID_CHARACTERS), minLength: 22, maxLength: 22 });

describe('the approvals stream filters', () => {
  it('pass every question id, including ones starting like the replay prefix', () => {
    // Arrange
    const ids = [
      ...Array.from({ length: 500 }, newApprovalId),
      'seenAAAAAAAAAAAAAAAAAA',
      'seeAAAAAAAAAAAAAAAAAAA',
      'sAAAAAAAAAAAAAAAAAAAAA',
      '-AAAAAAAAAAAAAAAAAAAAA',
    ];

    // Act / Assert
    for (const id of ids) {
      expect([id, passes('INSERT', id), passes('MODIFY', id)]).toEqual([id, true, true]);
    }
    fc.assert(fc.property(idLike, (id) => isApprovalId(id) && passes('INSERT', id)));
  });

  it('pass no replay-guard key, and no removal', () => {
    // Act / Assert
    fc.assert(fc.property(fc.string(), (rest) => !passes('INSERT', `${REPLAY_KEY_PREFIX}${rest}`)));
    expect(passes('REMOVE', newApprovalId())).toBe(false);
  });

  it("fit Lambda's limits: at most 5 filters of at most 4,096 characters", () => {
    // Assert
    expect(patterns.length).toBeLessThanOrEqual(5);
    for (const p of patterns) expect(p.length).toBeLessThanOrEqual(4096);
  });

  it('spell out "does not start with" position by position', () => {
    // Act
    const lists = prefixesNotStartingWith('ab', 'abc');

    // Assert
    expect(lists).toEqual([
      ['b', 'c'],
      ['aa', 'ac'],
    ]);
  });

  it("keep the replay guard's inserts from a notifier of your own too (approvalNotifier)", () => {
    // Arrange
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'OwnNotifier');
    const notifier = new lambda.Function(stack, 'Mine', {
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => {}'),
    });

    // Act
    new NomadRestartWorkflow(stack, 'Restart', {
      nomadAddress: 'https://nomad.internal:4646',
      approvalNotifier: notifier,
    });

    // Assert
    Template.fromStack(stack).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FilterCriteria: {
        Filters: questionRecordPatterns('approvalId', ['INSERT']).map((Pattern) => ({ Pattern })),
      },
    });
  });
});
