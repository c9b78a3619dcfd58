/**
 * The one place the handlers get their `RestartSteps` from: each method is one step's file
 * (`<step>-step.ts`), run with the kit built from this invocation's deps.
 */
import type { RestartSteps, RestartStepsDeps } from '../workflow/steps';
import { applyAnswerStep } from './apply-answer-step';
import { awaitBatchStep } from './await-batch-step';
import { awaitHealthStep } from './await-health-step';
import { checkDeploymentsStep } from './check-deployments-step';
import { decideStep } from './decide-step';
import { finishStep } from './finish-step';
import { stopForLostLockStep } from './lock-lost-step';
import { planStep } from './plan-step';
import { restartBatchStep } from './restart-batch-step';
import { createStepKit } from './step-kit';
import { triggerEvaluationsStep } from './trigger-evaluations-step';
import { stopAtWindowEndStep } from './window-end-step';

/** Builds the steps for one invocation (deps carry that invocation's deadline signal). */
export function createRestartSteps(deps: RestartStepsDeps): RestartSteps {
  const kit = createStepKit(deps);
  return {
    plan: (input) => planStep(kit, input),
    checkDeployments: (input) => checkDeploymentsStep(kit, input),
    restartBatch: (input) => restartBatchStep(kit, input),
    triggerEvaluations: (input) => triggerEvaluationsStep(kit, input),
    awaitBatch: (input) => awaitBatchStep(kit, input),
    awaitHealth: (input) => awaitHealthStep(kit, input),
    decide: (input) => decideStep(kit, input),
    applyAnswer: (input) => applyAnswerStep(kit, input),
    finish: (input) => finishStep(kit, input),
    stopAtWindowEnd: (input) => stopAtWindowEndStep(kit, input),
    stopForLostLock: (input, reason) => stopForLostLockStep(kit, input, reason),
  };
}
