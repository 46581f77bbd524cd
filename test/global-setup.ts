// End-to-end tests spawn the built CLI, so build it once before any test runs.
import { execFileSync } from 'node:child_process';

export default function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
