/**
 * AWS list prices used by the cost estimate, us-east-1, as published on the AWS pricing pages
 * for Step Functions and Lambda (assumed current on 2026-11-22; check before relying on them).
 */
export const PRICES = {
  /** Step Functions Standard: per state transition ($0.025 per 1,000). */
  stepFunctionsPerTransition: 0.025 / 1000,
  /** Lambda arm64: per GB-second. */
  lambdaArmPerGbSecond: 0.0000133334,
  /** Lambda: per request ($0.20 per 1M). */
  lambdaPerRequest: 0.2 / 1_000_000,
  /** Memory of every task function (lib/constructs/private/task-function.ts). */
  lambdaMemoryGb: 256 / 1024,
  source: 'aws.amazon.com/step-functions/pricing and aws.amazon.com/lambda/pricing, us-east-1 list prices',
  date: '2026-11-22',
} as const;
