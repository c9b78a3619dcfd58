/**
 * Runs work with variables set in `process.env`, as a Lambda function's environment sets them,
 * and puts back what was there before (the handlers read their settings from `process.env`).
 */

/** Runs `work` with `env` set in `process.env`; restores each variable's earlier value (or absence) after. */
export async function withEnvironment<T>(
  env: Readonly<Record<string, string>>,
  work: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
