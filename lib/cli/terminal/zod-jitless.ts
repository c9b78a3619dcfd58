/**
 * zod's JIT off for a run of the command. A run parses each schema a handful of times: zod's JIT
 * (a parser generated with `new Function` on the first parse, which V8's kept code never holds)
 * costs more than it saves here.
 *
 * A module of its own, imported dynamically by the runs that parse (run-local.ts, run-fleet.ts),
 * rather than `import('zod')` there: a dynamic import hands over zod's whole namespace, so the
 * command's bundle kept all of zod, its 60-odd locales too (~430 KB, an eighth of the bundle), and
 * a run evaluated them. Here `z.config` is a static use that esbuild can shake the rest from.
 */
import * as z from 'zod';

/** Turns zod's JIT off for this process (again is harmless). */
export function zodJitless(): void {
  z.config({ jitless: true });
}
