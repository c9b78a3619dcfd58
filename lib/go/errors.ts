/**
 * Errors of the Go ports. Each message is Go's own, word for word, because Nomad prints it as it
 * is and so do we.
 */

/** A Go duration failed to parse (`time: invalid duration "x"`). */
export class GoDurationError extends Error {
  public override readonly name: string = 'GoDurationError';
}

/** A command line broke Go's `flag` rules (`flag provided but not defined: -foo`). */
export class GoFlagSyntaxError extends Error {
  public override readonly name: string = 'GoFlagSyntaxError';
}
