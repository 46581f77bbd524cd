// Putting store-admin on PATH from a clone, as the README says: `npm install -g .` links the clone
// into npm's global prefix (here a private one), and the command runs from there.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = new URL('../..', import.meta.url).pathname;
const prefix = mkdtempSync(join(tmpdir(), 'store-admin-prefix-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

describe('store-admin on PATH from a clone', () => {
  it('the README says how, and `npm install -g .` does it', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    expect(readme).toContain('npm install -g .');
    expect(readme).toContain('npm link');
    // Offline, and without scripts: the build is the suite's own; a link needs no download.
    const install = spawnSync('npm', ['install', '-g', '.', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    const onPath = spawnSync('store-admin', ['--version'], {
      env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? tmpdir() },
      encoding: 'utf8',
    });
    expect(onPath.status, onPath.stderr).toBe(0);
    expect(onPath.stdout).toBe(`${version}\n`);
  });
});
