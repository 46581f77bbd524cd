// End-to-end tests spawn the built CLI, and the package test packs the library's declarations,
// so build both once before any test runs. Every run of the CLI that names no config dir of its
// own (and every terminal, shell and keychain it starts) gets a HOME of the suite's, so no test
// writes profiles or history into the real one; and none leaves a file in the repository root.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--types-if-stale'], { stdio: 'inherit' });
  const home = mkdtempSync(join(tmpdir(), 'store-admin-home-'));
  process.env.HOME = home;
  // Each worker takes a HOME of its own inside this one (worker-home.ts).
  process.env.STORE_ADMIN_SUITE_HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  delete process.env.STORE_ADMIN_CONFIG_DIR;
  // No test may leave a file in the repository (a download's default name lands in the working dir).
  const root = new URL('..', import.meta.url).pathname;
  const before = new Set(readdirSync(root));
  return () => {
    rmSync(home, { recursive: true, force: true });
    const left = readdirSync(root).filter((name) => !before.has(name));
    if (left.length > 0) {
      process.exitCode = 1;
      throw new Error(`The tests left files in the repository root: ${left.join(', ')}`);
    }
  };
}
