// The sandbox behind `--sandbox`: started in-process on a free port for one command, with its
// state in a file under the config dir so effects persist between commands.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
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
    // One command per process: the deliveries it caused get their first attempt before it exits;
    // retries wait in the state file for a later command.
    webhooks: { finishOnClose: true },
  });
}
