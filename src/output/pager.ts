// Long output on a terminal goes through a pager, as git and gh do: STORE_ADMIN_PAGER, else PAGER,
// else `less -FRX` when installed (it quits at once when the text fits the screen). Never in a pipe.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { childEnv, type IO } from '../io.js';

/** The run's interrupt signals, asked for only when a pager starts (asking is what takes Ctrl-C from Node). */
export type RunSignals = () => readonly AbortSignal[];

export async function writeOut(text: string, io: IO, signals?: RunSignals): Promise<void> {
  const command = io.stdout.isTTY && longerThanScreen(text, io.stdout.rows) ? pagerCommand(io.env) : undefined;
  if (!command || !(await page(io.scrub?.(text) ?? text, command, io.env, signals?.() ?? []))) io.stdout.write(text);
}

/** The pager to use, or undefined: an empty value or `cat` turns paging off. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env.STORE_ADMIN_PAGER ?? env.PAGER;
  if (chosen !== undefined) return chosen.trim() === '' || chosen.trim() === 'cat' ? undefined : chosen;
  return onPath('less', env.PATH) ? 'less -FRX' : undefined;
}

function longerThanScreen(text: string, rows: number | undefined): boolean {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines >= (rows ?? 24) - 1;
}

function onPath(name: string, path = ''): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * False when the pager could not run (the text is then printed as it is). Ctrl-C belongs to the
 * pager while it runs (less uses it to stop a search), as in git: the run's signals keep it from
 * ending the run. SIGTERM ends the pager with the run.
 */
async function page(text: string, command: string, env: NodeJS.ProcessEnv, signals: readonly AbortSignal[]): Promise<boolean> {
  if (signals.some((signal) => signal.reason === 'SIGTERM')) return false;
  // Loaded only to page: child_process costs start-up time on every run.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...childEnv(env), LESS: env.LESS ?? 'FRX' } });
    const terminate = (event: Event) => {
      if ((event.target as AbortSignal).reason === 'SIGTERM') child.kill('SIGTERM');
    };
    for (const signal of signals) signal.addEventListener('abort', terminate, { once: true });
    const done = (ran: boolean) => {
      for (const signal of signals) signal.removeEventListener('abort', terminate);
      resolve(ran);
    };
    child.on('error', () => done(false));
    // 127: the shell found no such command.
    child.on('close', (code) => done(code !== 127));
    // Quitting the pager before the end closes its input: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(text);
  });
}
