/**
 * Who runs this command, for the people a run's questions reach: `user@host`, the login name and
 * the machine's name (never a credential). It is the run's `startedBy` ("Started by alice@laptop"
 * in chat) and who answered a question here.
 */
import { hostname, userInfo } from 'node:os';

/** `user@host` for this process. */
export function operatorName(env: NodeJS.ProcessEnv = process.env): string {
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (a container): the shell's own idea of the user.
    user = env['USER'] ?? env['LOGNAME'];
  }
  return `${user || 'unknown'}@${hostname() || 'unknown'}`;
}
