/**
 * cdk-nag's AwsSolutions pack run on a whole app, as the infrastructure tests read it: every
 * finding that no acknowledgement (with its reason) covers, as `<rule>: <logical ids>`.
 */
import type { App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/** The unacknowledged AwsSolutions findings of `app`; `success` is cdk-nag's own verdict. */
export function awsSolutionsFindings(app: App): { findings: string[]; success: boolean } {
  const report = new AwsSolutionsChecks(app).validateScope(app);
  return {
    findings: report.violations.map(
      (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.resourceLogicalId).join(', ')}`,
    ),
    success: report.success,
  };
}
