/**
 * Scenario: every role of the full stack (approvals, run-end notifications, two schedules in two
 * groups) is assumed by the service that uses it, with the context that service sends
 * (assumed-by.ts), through the IAM evaluator. A trust condition the service never meets — the
 * scheduler role scoped to a schedule's ARN while Scheduler sends its group's — fails here with
 * the evaluator's reason.
 */
import { assumptionsOf } from './helpers/assumed-by';
import { fullStackTemplate } from './helpers/full-stack-template';
import { evaluateAssumeRole } from './helpers/iam-evaluator';
import { TemplateIam } from './helpers/template-iam';

const template = new TemplateIam(await fullStackTemplate());
const roles = template.logicalIdsOf('AWS::IAM::Role');

describe('the roles of the full stack', () => {
  it('are each used by something that assumes them', () => {
    // Act
    const unused = roles.filter((role) => assumptionsOf(template, role).length === 0);

    // Assert
    expect(unused).toEqual([]);
  });

  it.each(roles)('%s can be assumed by each service that uses it', async (role) => {
    // Arrange
    const uses = assumptionsOf(template, role);

    // Act
    const refused: string[] = [];
    for (const use of uses) {
      const decision = await evaluateAssumeRole(
        template.arnOf(role),
        template.trustPolicy(role),
        use.service,
        use.context,
      );
      if (!decision.allowed)
        refused.push(
          `${use.service} for ${use.user} with ${JSON.stringify(use.context)}: ${decision.explanation}`,
        );
    }

    // Assert
    expect(refused).toEqual([]);
  });

  it("lets Scheduler assume a schedule's role for the schedule's own group only", async () => {
    // Arrange
    const [role] = roles.filter((r) =>
      assumptionsOf(template, r).some((u) => u.user.includes('group maintenance')),
    );
    if (role === undefined) throw new Error('no role for the schedule in group maintenance');
    const otherGroup = {
      'aws:SourceArn': 'arn:aws:scheduler:us-east-1:123456789012:schedule-group/default',
      'aws:SourceAccount': '123456789012',
    };

    // Act
    const decision = await evaluateAssumeRole(
      template.arnOf(role),
      template.trustPolicy(role),
      'scheduler.amazonaws.com',
      otherGroup,
    );

    // Assert
    expect(decision.allowed).toBe(false);
    expect(decision.explanation).toContain('aws:SourceArn');
  });
});
