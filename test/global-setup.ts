// End-to-end tests spawn the built CLI, and the package test packs the library's declarations,
// so build both once before any test runs.
import { execFileSync } from 'node:child_process';

export default function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--types-if-stale'], { stdio: 'inherit' });
}
