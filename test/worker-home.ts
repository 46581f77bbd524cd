// Test files run two at a time, one per worker: each worker gets a HOME of its own inside the
// suite's (global-setup.ts), so a command that writes into HOME (the embedded sandbox's state, the
// history, a shell's rc files) never meets another worker's run. Files in one worker run one after
// another, as all files did before.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const suiteHome = process.env.STORE_ADMIN_SUITE_HOME;
if (suiteHome) {
  const home = join(suiteHome, `worker-${process.env.VITEST_POOL_ID ?? '0'}`);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  process.env.HOME = home;
}
