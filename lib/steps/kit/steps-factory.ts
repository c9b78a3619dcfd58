/**
 * The one place the handlers get their `RestartSteps` from: each method is one step's file
 * (`<step>-step.ts`), run with the kit built from this invocation's deps.
 */
import type { RestartSteps } from '../../workflow/restart-steps';
import { bakeStep } from '../alarms/bake-step';
import { awaitBatchStep } from '../await/await-batch-step';
import { checkDeploymentsStep } from '../batch/check-deployments-step';
import { restartBatchStep } from '../batch/restart-batch-step';
import { triggerEvaluationsStep } from '../batch/trigger-evaluations-step';
import { applyAnswerStep } from '../decide/apply-answer-step';
import { decideStep } from '../decide/decide-step';
import { finishStep } from '../decide/finish-step';
import { awaitHealthStep } from '../health/await-health-step';
import { planStep } from '../plan/plan-step';
import { createStepKit, type StepKitDeps } from './step-kit';

/** Builds the steps for one invocation (deps carry that invocation's deadline signal). */
export function createRestartSteps(deps: StepKitDeps): RestartSteps {
  const kit = createStepKit(deps);
  return {
    plan: (input) => planStep(kit, input),
    checkDeployments: (input) => checkDeploymentsStep(kit, input),
    restartBatch: (input) => restartBatchStep(kit, input),
    triggerEvaluations: (input) => triggerEvaluationsStep(kit, input),
    awaitBatch: (input) => awaitBatchStep(kit, input),
    awaitHealth: (input) => awaitHealthStep(kit, input),
    decide: (input) => decideStep(kit, input),
    bake: (input) => bakeStep(kit, input),
    applyAnswer: (input) => applyAnswerStep(kit, input),
    finish: (input) => finishStep(kit, input),
  };
}
