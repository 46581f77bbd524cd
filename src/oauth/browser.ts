// Opens a URL in the person's browser as gh does: the command in BROWSER (the URL its one added
// argument), else the platform's opener. Over SSH without BROWSER, the browser would open on the
// wrong machine, so nothing is opened. The URL carries no secret: it is safe in an argument list.
import { spawn } from 'node:child_process';
import { childEnv } from '../io.js';

export type BrowserOutcome = { opened: true; by: string } | { opened: false; reason: string };

export function overSsh(env: NodeJS.ProcessEnv): boolean {
  return !!(env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY);
}

function platformOpener(url: string, platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  // cmd's start reads & and ^ itself; the empty title keeps a quoted URL from becoming one.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/[&^]/g, '^$&')]];
  return ['xdg-open', [url]];
}

export async function openBrowser(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<BrowserOutcome> {
  const browser = env.BROWSER?.trim();
  const tries: [string, string[]][] = [];
  if (browser) {
    const [command, ...args] = browser.split(/\s+/);
    tries.push([command!, [...args, url]]);
  } else if (overSsh(env)) {
    return { opened: false, reason: 'this is an SSH session and BROWSER is not set' };
  }
  tries.push(platformOpener(url, platform));
  const failures: string[] = [];
  for (const [command, args] of tries) {
    const failure = await start(command, args, env);
    if (!failure) return { opened: true, by: command };
    failures.push(`${command}: ${failure}`);
  }
  return { opened: false, reason: failures.join('; ') };
}

/** Starts the opener and lets it run on its own; the reason it could not start, if it could not. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: childEnv(env), stdio: 'ignore', detached: true, windowsVerbatimArguments: command === 'cmd' });
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'not found' : error.message));
    child.once('spawn', () => {
      child.unref();
      resolve(undefined);
    });
  });
}

