// The README's first command: the guided tour runs every step against the embedded sandbox.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm run demo', () => {
  it('runs every step of the tour without an error', () => {
    const script = new URL('../../scripts/demo.mjs', import.meta.url).pathname;
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } });
    expect(r.stderr).not.toContain('(exit ');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Every command above ran against the embedded sandbox');
    expect(r.stdout.match(/^\$ store-admin /gm)).toHaveLength(6);
  });
});
