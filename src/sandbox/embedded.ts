// The sandbox behind `--sandbox`: started in-process on a free port for one command, with its
// state in a file under the config dir so effects persist between commands.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { configDir } from '../config/paths.js';
import { fileStore } from './file-store.js';
import { startSandbox, type Sandbox } from './server.js';

export function sandboxStatePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'sandbox-state.json');
}

export function startEmbeddedSandbox(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    token: `sbx_${randomBytes(16).toString('hex')}`,
    store: fileStore(sandboxStatePath(env)),
    exportDelaySeconds: exportDelay(env),
    // One command per process: the deliveries it caused get their first attempt before it exits;
    // retries wait in the state file for a later command.
    webhooks: { finishOnClose: true },
  });
}

/** STORE_ADMIN_SANDBOX_EXPORT_DELAY: seconds a new export stays pending (the readiness time is kept in the state file). */
function exportDelay(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.STORE_ADMIN_SANDBOX_EXPORT_DELAY?.trim();
  if (!value) return undefined;
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(value)) {
    throw new UsageError(`STORE_ADMIN_SANDBOX_EXPORT_DELAY takes seconds, such as 5 or 0.5 (got "${value}")`);
  }
  return Number(value);
}
