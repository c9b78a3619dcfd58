/**
 * The handlers' single Powertools logger, with the rules of what may be logged.
 */
import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured logger of the handlers. It is never given the Nomad client, its config,
 * a secret, a task token or a whole event: handlers log ids and counts only, and the tests
 * assert that no line contains the token.
 */
export const logger = new Logger({ serviceName: 'nomad-restart' });
