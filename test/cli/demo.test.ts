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
    // Piped, it prints text, not escape codes; and it teaches what the help advises: a secret from a file.
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).toMatch(/^# Register a webhook/m);
    expect(r.stdout).toMatch(/^\$ store-admin webhooks create .* --secret-key-file webhook-secret\.txt$/m);
    expect(r.stdout).not.toMatch(/--secret-key(?!-file)/);
    expect(r.stdout).not.toContain('demo-secret-0123456789');
  });
});
