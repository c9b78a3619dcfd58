/**
 * Nomad's limit on a variable's size (`maxVariableSize` in nomad/structs/variables.go): the sum of
 * its items' key and value lengths in bytes (`VariableItems.Size` sums Go's `len(string)`), at
 * most 64 KiB, not configurable. `VariableDecrypted.Validate` refuses a bigger write.
 */

const MAX_VARIABLE_SIZE = 65536;

/** Nomad's error text for `items`, or undefined when Nomad accepts their size. */
export function variableSizeError(items: Readonly<Record<string, string>>): string | undefined {
  let size = 0;
  for (const [key, value] of Object.entries(items)) size += Buffer.byteLength(key) + Buffer.byteLength(value);
  return size > MAX_VARIABLE_SIZE ? 'variables are limited to 64KiB in total size' : undefined;
}
