// End-to-end tests spawn the built CLI, and the package test packs the library's declarations,
// so build both once before any test runs. Every run of the CLI that names no config dir of its
// own (and every terminal, shell and keychain it starts) gets a HOME of the suite's, so no test
// writes profiles or history into the real one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--types-if-stale'], { stdio: 'inherit' });
  const home = mkdtempSync(join(tmpdir(), 'store-admin-home-'));
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  delete process.env.STORE_ADMIN_CONFIG_DIR;
  return () => rmSync(home, { recursive: true, force: true });
}
