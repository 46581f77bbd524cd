// Where store-admin keeps its files: STORE_ADMIN_CONFIG_DIR, else the platform's convention.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.STORE_ADMIN_CONFIG_DIR) return env.STORE_ADMIN_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'store-admin');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'store-admin', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'store-admin');
}
