/** go-multierror's text for a list of errors, as Nomad's validation prints it. */
export function multiError(errors: string[]): string {
  const head = errors.length === 1 ? '1 error occurred:' : `${errors.length} errors occurred:`;
  return `${head}\n${errors.map((e) => `\t* ${e}`).join('\n')}\n\n`;
}
