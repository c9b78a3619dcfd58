/**
 * PLACEHOLDER of the fl-machine branch, so the fleet state machine synthesizes before the real
 * handler is merged (its own branch replaces this file whole). Never deployed as is.
 */
export const handler = async (): Promise<never> => {
  throw new Error('placeholder');
};
