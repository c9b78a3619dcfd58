/**
 * The one place the handlers get their `RestartSteps` from: each method is one step's file
 * (`<step>-step.ts`), run with the kit built from this invocation's deps.
 */
import type { RestartSteps, RestartStepsDeps, StepInput } from '../workflow/steps';
import { applyAnswerStep } from './apply-answer-step';
import { awaitBatchStep } from './await-batch-step';
import { checkDeploymentsStep } from './check-deployments-step';
import { decideStep } from './decide-step';
import { finishStep } from './finish-step';
import { planStep } from './plan-step';
import { restartBatchStep } from './restart-batch-step';
import { createStepKit, type StepKit } from './step-kit';
import { triggerEvaluationsStep } from './trigger-evaluations-step';

/**
 * Builds the steps for one invocation (deps carry that invocation's deadline signal). Every
 * step talks to Nomad in the run's region (`-region`/`NOMAD_REGION`, carried in the options):
 * on AWS the options are the only place the user's region reaches the Lambda, so no step can
 * fall back to the agent's own region.
 */
export function createRestartSteps(deps: RestartStepsDeps): RestartSteps {
  const kit = (input: StepInput): StepKit => {
    const region = input.options.region;
    return createStepKit(region ? { ...deps, nomad: deps.nomad.withRegion(region) } : deps);
  };
  return {
    plan: (input) => planStep(kit(input), input),
    checkDeployments: (input) => checkDeploymentsStep(kit(input), input),
    restartBatch: (input) => restartBatchStep(kit(input), input),
    triggerEvaluations: (input) => triggerEvaluationsStep(kit(input), input),
    awaitBatch: (input) => awaitBatchStep(kit(input), input),
    decide: (input) => decideStep(kit(input), input),
    applyAnswer: (input) => applyAnswerStep(kit(input), input),
    finish: (input) => finishStep(kit(input), input),
  };
}
