/** Length of an ID in normal output: Nomad's `shortId`. */
export const SHORT_ID_LENGTH = 8;

/** Length of a full UUID, shown with `-verbose`: Nomad's `fullId`. */
export const FULL_ID_LENGTH = 36;

/** How IDs are shown in messages and lines: cut to 8 characters, or in full with `-verbose`. */
export interface IdDisplay {
  /** `true` prints full 36-character IDs (Nomad's `-verbose`). */
  readonly verbose: boolean;
}

/**
 * Nomad's `limit(id, length)`: allocation, evaluation and deployment IDs are cut to 8
 * characters unless verbose. Job IDs, groups and tasks are never passed through this.
 */
export function displayId(id: string, display: IdDisplay): string {
  const length = display.verbose ? FULL_ID_LENGTH : SHORT_ID_LENGTH;
  return id.length > length ? id.slice(0, length) : id;
}
